"""Implant, with its builders (implant_builders)."""
