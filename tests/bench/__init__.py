"""The benchmark's own code: generated campaigns and the odds measure."""
