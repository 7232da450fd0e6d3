"""A job's BLAS/OpenMP threads come from its rule's ``threads:``: Snakemake's shell exports them
(the workflow has no wrapper of its own), so single-threaded jobs side by side never
oversubscribe the cores."""

import subprocess
import sys
import textwrap

import pytest

VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@pytest.mark.e2e
def test_a_jobs_thread_variables_follow_its_rules_threads(tmp_path):
    (tmp_path / "Snakefile").write_text(
        textwrap.dedent(
            """
            rule all:
                input: "one.env", "two.env"

            rule one:  # no threads: directive, as most of the workflow's rules
                output: "one.env"
                shell: "env > {output}"

            rule two:
                output: "two.env"
                threads: 2
                shell: "env > {output}"
            """
        )
    )
    env = {"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "8"}  # what the caller had is not kept
    subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "--quiet"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    for name, threads in (("one", "1"), ("two", "2")):
        lines = (tmp_path / f"{name}.env").read_text().splitlines()
        values = {k: v for k, _, v in (line.partition("=") for line in lines)}
        assert [values.get(v) for v in VARIABLES] == [threads] * 3, name
