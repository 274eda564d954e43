"""`rollbook serve`: the service layer over HTTP, for a group that runs Rollbook for itself.

Players post moves for their own characters, signed in as themselves; the GM and auditors
sign in with their own roles. `create_app(store_url)` builds the FastAPI application;
`accounts` holds users, tokens and roles, shared with the CLI's `users` and `grant` verbs.
"""
