"""`make test` runs every benchmark once, untimed (``--benchmark-disable``), so a broken one
fails the suite; `make bench` times them, on one BLAS thread as the workflow's jobs run."""

import math
from collections.abc import Callable, Iterator

import pytest
from pytest_benchmark.fixture import BenchmarkFixture
from threadpoolctl import threadpool_limits


@pytest.fixture
def seconds(benchmark: BenchmarkFixture) -> Callable[[str], float]:
    """The benchmark's timing statistic (``min``, ``mean``) after it ran; NaN when untimed."""

    def statistic(name: str = "min") -> float:
        return math.nan if benchmark.stats is None else float(getattr(benchmark.stats.stats, name))

    return statistic


@pytest.fixture(autouse=True, scope="session")
def one_blas_thread() -> Iterator[None]:
    """One thread for BLAS and OpenMP, as Snakemake gives each single-threaded job."""
    with threadpool_limits(limits=1):
        yield
