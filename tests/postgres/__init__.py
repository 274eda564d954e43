"""PostgreSQL: every verb, the subscription-based follower, export from SQLite and import into PostgreSQL."""
