# The two commands: `make reproduce` (set up, then run everything) and `make test`.
# Both create .venv and install the package from the package registries on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.boostrank-installed
SNAKEMAKE := $(BIN)/snakemake --profile profiles/local

.PHONY: help install lock reproduce quick readings report test test-fast test-slurm lint bench dry-run \
  figure list-figures readme-results slurm-resources clean

help:  ## this list
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:[^#]*## /\t/' | expand -t 18

# Exact versions with hashes (requirements.lock, from pyproject.toml by `make lock`), then the
# package itself without dependencies.
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install boostrank with its pinned dependencies

lock:  ## refresh requirements.lock and environment.yml from pyproject.toml (uv pip compile)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "uv>=0.5"
	$(BIN)/uv pip compile pyproject.toml --extra test --generate-hashes --python-version 3.11 \
	  --python-platform x86_64-manylinux_2_28 --no-header -o requirements.lock
	$(BIN)/python tools/environment_from_lock.py requirements.lock environment.yml

reproduce: $(STAMP)  ## the full reproduction with config/config.yaml [ARGS=...]
	$(SNAKEMAKE) $(ARGS)

quick: $(STAMP)  ## the same DAG, smaller (config/quick.yaml) [ARGS=...]
	$(SNAKEMAKE) --configfile config/quick.yaml $(ARGS)

# The README's claim tally (and docs/last-run.json) from a full run's results/claims.csv:
# RUN is the run's directory, whose checked-out commit is recorded.
RUN ?= .
readme-results: $(STAMP)  ## the README's claim tally from a full run [RUN=<run dir>]
	$(BIN)/python -m boostrank headline $(RUN)/results/claims.csv \
	  --commit $$(git -C $(RUN) rev-parse --short HEAD)

# Every reading of config/readings.yaml under each of its options, on real data: a copy of the
# workflow per (reading, option) under results/readings/; results/readings.csv and
# figures/readings.png. On config/quick.yaml by default (the full config would rerun whole
# chapters once per option); READINGS_CONFIG=config/config.yaml runs the full protocol.
READINGS_CONFIG ?= config/quick.yaml
readings: $(STAMP)  ## how each reading moves the published numbers (results/readings.csv)
	$(SNAKEMAKE) --snakefile workflow/readings.smk --configfile $(READINGS_CONFIG) $(ARGS)

report: $(STAMP)  ## Snakemake's report of the last run: results/snakemake-report.zip [ARGS=...]
	$(SNAKEMAKE) --report results/snakemake-report.zip $(ARGS)

# Tests in tiers: tests/unit (algorithms, metrics, data, registries: seconds each),
# tests/experiments (the works' jobs on small or real data), tests/e2e (Snakemake end to end).
test-fast: $(STAMP)  ## the unit tier only, for day-to-day work (about a minute)
	$(BIN)/pytest tests/unit -m "not e2e" -q

test: lint  ## lint and every tier of the test suite (what CI runs)
	$(BIN)/pytest

# The same checks as .pre-commit-config.yaml's hooks (at the same versions), on every file.
lint: $(STAMP)  ## ruff, ruff format, snakefmt and mypy checks alone
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/snakefmt --check Snakefile workflow/rules workflow/readings.smk
	$(BIN)/mypy

bench: $(STAMP)  ## speed benchmarks (pytest-benchmark); prints the figures
	$(BIN)/pytest tests/benchmarks --benchmark-enable --benchmark-only --benchmark-columns=min,mean,max,rounds

dry-run: $(STAMP)  ## show the DAG without running it
	$(SNAKEMAKE) -n

list-figures: $(STAMP)  ## every figure and table: source, rules, functions, targets
	@$(BIN)/python -m boostrank figures --rules

# The figure-to-code table, from config/figures.yaml (tests/unit/test_figure_code.py checks that the
# committed file is what this writes now).
docs-figures: $(STAMP)  ## regenerate docs/figures.md from config/figures.yaml
	$(BIN)/python -m boostrank figures --markdown > docs/figures.md.tmp && mv docs/figures.md.tmp docs/figures.md

# One figure or table, from cached results: only its own jobs and what they need that is out of
# date run (not the report, which needs every figure). FIG=<id> (NAME=<id> also works);
# FORCE=1 reruns its final job even if up to date. Ids: make list-figures.
# ARGS: more snakemake options, after the targets (e.g. ARGS="--configfile config/quick.yaml").
FIG ?= $(NAME)
figure: $(STAMP)  ## regenerate one figure or table: make figure FIG=thesis-fig3_1 [FORCE=1]
	@test -n "$(FIG)" || { echo "usage: make figure FIG=<id>   (ids: make list-figures)"; exit 2; }
	@targets=$$($(BIN)/python -m boostrank figures $(FIG)) && \
	  $(SNAKEMAKE) $(if $(FORCE),--force,) $$targets $(ARGS)

# docs/configuration.md from the config schema's descriptions and config/config.yaml's values;
# tests/unit/test_config_doc.py fails until it is regenerated after either changes.
.PHONY: docs-config
docs-config: $(STAMP)  ## regenerate the configuration reference docs/configuration.md
	$(BIN)/python -m boostrank config-doc --out docs/configuration.md

slurm-resources: $(STAMP)  ## profiles/slurm's resources, retries' memory, groups: from the last run
	$(BIN)/python -m boostrank.workflow.cluster_resources

test-slurm: $(STAMP)  ## the cluster test alone (root: installs and starts a one-node SLURM)
	$(BIN)/pytest tests/e2e/test_slurm.py -v

clean:  ## remove generated data, results and figures (keeps .venv)
	rm -rf data/raw data/interim data/processed results figures/*.png figures/*.pdf \
	  figures/tables benchmarks logs .snakemake
