"""The testing kit: its example, its pytest plugin and a rule system of its own package."""
