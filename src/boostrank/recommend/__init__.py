"""Recommender-system pieces (collaborative filtering base rankers)."""
