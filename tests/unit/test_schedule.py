"""The run's critical path and simulated wall time on p cores (boostrank.report.schedule)."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostrank.report.schedule import JobRecord, critical_path, simulate


def _diamond():
    #   fetch(1) -> a(5) -> merge(2)
    #            -> b(3) ->
    return [
        JobRecord("fetch", 1.0),
        JobRecord("a", 5.0, deps=("fetch",)),
        JobRecord("b", 3.0, deps=("fetch",)),
        JobRecord("merge", 2.0, deps=("a", "b")),
    ]


def test_a_diamonds_critical_path_is_its_longer_branch():
    assert critical_path(_diamond()) == (8.0, ["fetch", "a", "merge"])
    assert critical_path(_diamond(), overhead_s=0.5) == (9.5, ["fetch", "a", "merge"])


def test_a_diamond_on_one_two_and_many_cores():
    assert simulate(_diamond(), 1) == 11.0  # all the work, one after another
    assert simulate(_diamond(), 2) == 8.0  # b beside a: the critical path
    assert simulate(_diamond(), 128) == 8.0
    assert simulate(_diamond(), 1, overhead_s=1.0) == 15.0


def test_a_job_with_threads_holds_that_many_cores():
    jobs = [JobRecord("forest", 4.0, threads=2), JobRecord("tree", 2.0)]
    assert simulate(jobs, 2) == 4.0  # 4 CPU-s on 2 threads: 2 s, then the tree: 2 s
    assert simulate(jobs, 3) == 2.0
    assert critical_path(jobs)[0] == 2.0


def test_a_cycle_and_an_unknown_dependency_are_refused():
    with pytest.raises(ValueError, match="cycle"):
        critical_path([JobRecord("a", 1, deps=("b",)), JobRecord("b", 1, deps=("a",))])
    with pytest.raises(ValueError, match="unknown jobs"):
        simulate([JobRecord("a", 1, deps=("gone",))], 2)


@st.composite
def _graphs(draw):
    n = draw(st.integers(1, 30))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    jobs = []
    for i in range(n):
        deps = tuple(f"j{k}" for k in range(i) if rng.random() < 0.2)
        jobs.append(JobRecord(f"j{i}", draw(st.floats(0, 100)), deps=deps))
    return jobs


@settings(max_examples=200, deadline=None)
@given(_graphs(), st.integers(1, 16))
def test_the_schedule_keeps_grahams_bounds(jobs, cores):
    """max(C, W/p) <= T_p <= W/p + (1 - 1/p) C: no schedule beats the critical path or the
    work spread evenly, and a list schedule never idles a core while a job is ready."""
    work = sum(j.cpu_s for j in jobs)
    path, chain = critical_path(jobs)
    wall = simulate(jobs, cores)
    slack = 1e-9 * (1 + work)
    assert max(path, work / cores) - slack <= wall <= work / cores + (1 - 1 / cores) * path + slack
    assert simulate(jobs, 1) == pytest.approx(work)
    assert simulate(jobs, len(jobs)) == pytest.approx(path)
    by_name = {j.name: j for j in jobs}
    assert sum(by_name[n].cpu_s for n in chain) == pytest.approx(path)
    assert all(a in by_name[b].deps for a, b in itertools.pairwise(chain))
