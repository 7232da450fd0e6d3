"""The params function of a ``boostrank job`` rule: the job's spec as JSON.

Snakemake records a rule's params and reruns a job whose params changed, but it leaves out a
params function that names ``input``, ``output``, ``threads`` or ``resources`` among its
arguments: it reads such a value as derived from the files, whose changes the input trigger
already sees. A spec holds paths and configuration alike, so a function naming ``input``
would hide every configuration change from the params trigger. :func:`spec_param` takes the
files through ``**files`` instead: Snakemake still passes them, and records the spec.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def spec_param(
    config: dict[str, Any], build: Callable[..., Any], fixed: dict[str, Any]
) -> Callable[..., str]:
    """A params function: ``build(config, wildcards, input, output, **fixed)``'s JSON, where a
    callable in ``fixed`` is called with the wildcards (a value known only after a
    checkpoint)."""

    def spec(wildcards: Any, **files: Any) -> str:
        extra = {k: v(wildcards) if callable(v) else v for k, v in fixed.items()}
        return build(config, wildcards, files["input"], files["output"], **extra).to_json()

    return spec


__all__ = ["spec_param"]
