"""The pirate game, with its crew builders (pirates_crew)."""
