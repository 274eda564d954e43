"""Replay, audit, disputes, time travel, export and import."""
