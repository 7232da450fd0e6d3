"""The workflow's plumbing, apart from the science: what the Snakemake rules and the CLI need to
run jobs, not what any job computes -- the configuration and registry checks
(:mod:`.config_check`), the figure catalogue (:mod:`.catalog`), each job's code inputs
(:mod:`.code_deps`) and their cache (:mod:`.stamp_cache`), the jobs' logged and cluster
resources (:mod:`.job_resources`, :mod:`.cluster_resources`) and the fixes to how
Snakemake's scheduler is woken (:mod:`.scheduler_wakes`).

The algorithms, metrics and data preparation (``boosting``, ``ranking``, ``online``,
``metrics``, ``preprocess``) never import it (``tests/unit/test_architecture.py``).
"""
