"""boostrank: a reproducible pipeline for Valizadegan (2010), *Boosting and Online Learning for
Classification and Ranking*, and four related works."""

__version__ = "0.1.0"
