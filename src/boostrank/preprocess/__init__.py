"""Preprocessing: text (tokens, stemming, weightings) and LETOR features from raw statistics."""
