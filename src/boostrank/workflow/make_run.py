"""How the Makefile runs a command with what a user typed as ``ARGS``: as arguments, never as
shell text.

make hands the value over untouched in the environment (``BOOSTRANK_MAKE_ARGS``); this splits
it into words as a shell would (quotes group words; nothing is expanded, substituted or run),
checks that every ``--configfile`` it names exists, and runs the command with those words
appended::

    python -m boostrank.workflow.make_run .venv/bin/snakemake --profile profiles/local

A value that cannot be split (an unclosed quote) or a missing config file stops with one line.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from boostrank.errors import BoostrankError

ARGS_ENV = "BOOSTRANK_MAKE_ARGS"


def split_args(text: str) -> list[str]:
    """The words of ``text`` as a POSIX shell splits them, with nothing expanded."""
    try:
        return shlex.split(text)
    except ValueError as exc:  # shlex: "No closing quotation", "No escaped character"
        raise BoostrankError(
            f"ARGS={text!r} cannot be split into options ({str(exc).lower()}); "
            "close each quote, e.g. ARGS=\"--config run_name='my run'\""
        ) from None


def config_files(args: Sequence[str]) -> list[str]:
    """The files named after ``--configfile``/``--configfiles`` (up to the next option)."""
    files: list[str] = []
    taking = False
    for arg in args:
        if arg.startswith("-"):
            taking = arg in ("--configfile", "--configfiles")
            if "=" in arg and arg.split("=", 1)[0] in ("--configfile", "--configfiles"):
                files.append(arg.split("=", 1)[1])
                taking = False
        elif taking:
            files.append(arg)
    return files


def check_config_files(args: Sequence[str]) -> None:
    """Stop with one line when a ``--configfile`` in ``args`` does not exist (Snakemake would
    print a traceback)."""
    for name in config_files(args):
        if not Path(name).is_file():
            raise BoostrankError(
                f"config file {name!r} does not exist in {Path.cwd()}; give the path of a "
                'YAML file, e.g. ARGS="--configfile config/quick.yaml"'
            )


def command(base: Sequence[str], environ: Mapping[str, str]) -> list[str]:
    """``base`` followed by the words of ``$BOOSTRANK_MAKE_ARGS``, its config files checked."""
    cmd = [*base, *split_args(environ.get(ARGS_ENV, ""))]
    check_config_files(cmd)
    return cmd


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``argv`` plus ARGS in place of this process (its exit code is the command's)."""
    base = list(sys.argv[1:] if argv is None else argv)
    if not base:
        print("usage: python -m boostrank.workflow.make_run COMMAND [ARG...]", file=sys.stderr)
        return 2
    try:
        cmd = command(base, os.environ)
    except BoostrankError as exc:
        print(f"make: error: {exc}", file=sys.stderr)
        return 2
    print(shlex.join(cmd), flush=True)  # what make would have echoed
    os.execvp(cmd[0], cmd)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
