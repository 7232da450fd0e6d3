"""Experiments: each module computes one family of figures or tables from processed data."""
