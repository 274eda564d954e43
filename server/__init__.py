"""`rollbook serve`'s HTTP API: the group's use cases (hosting/) over HTTP, for a group that runs Rollbook for itself.

Players post moves for their own characters, signed in as themselves; the GM and auditors
sign in with their own roles. `app.create_api(host)` builds the API's FastAPI application; the composition
root (bootstrap/) builds the host and mounts the pages and the chats beside it. It imports neither.
"""
