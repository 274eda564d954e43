"""Rollbook: an event-sourced session simulator for play-by-post role-playing campaigns."""

__version__ = "0.1.0"
