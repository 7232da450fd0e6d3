"""Errors that carry a message meant for the person running the pipeline."""

from collections.abc import Iterable


class BoostrankError(Exception):
    """A user-facing error: the message says what is wrong and how to fix it."""


class ChecksumError(BoostrankError):
    """A file's sha256 differs from the registry's."""


class UnreadableGzip(ChecksumError):
    """A ``.gz`` file that cannot be decompressed (a flipped bit, a cut-off end)."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path} is not a readable gzip file ({reason})")
        self.reason = reason


class SourceUnavailable(BoostrankError):
    """A data source cannot provide a data set (not configured, offline, file missing)."""


class FormatError(BoostrankError, ValueError):
    """A data file's content is malformed: the message names the file and, for text, the line.

    Also a ValueError, so a caller that catches the parsers' ValueError catches it too."""


class InputError(BoostrankError, ValueError):
    """Bad input to an estimator (``X``, ``y``, ``n_classes``): also a ValueError, as
    scikit-learn expects of estimators."""


def did_you_mean(word: str, choices: Iterable[object]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices`` to a mistyped ``word``, or ""."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
