"""Evaluation measures."""
