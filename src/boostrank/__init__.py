"""boostrank: a reproducible pipeline for Valizadegan (2010), *Boosting and Online Learning for
Classification and Ranking*, and four related works."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version(__name__)  # pyproject.toml's, as installed: the one place it is set
except PackageNotFoundError:  # the sources on the path, never installed
    __version__ = "0+unknown"
