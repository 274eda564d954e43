"""The heroes' game, with its builders (heroes_builders)."""
