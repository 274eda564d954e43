"""The project's own tests use the installed Rollbook pytest plugin (fixture `campaign`)."""
