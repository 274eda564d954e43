"""The gladiators' game, with its builders (gladiator_builders)."""
