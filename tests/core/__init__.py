"""The core: parsing, the service, the command line, dice, ownership and the ruleset registry."""
