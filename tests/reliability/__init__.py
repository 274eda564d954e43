"""Reliability: bad input, crashes, concurrency, a store that goes away, logs."""
