# The two commands: `make reproduce` (set up, then run everything) and `make test`.
# Both create .venv and install the package from the package registries on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.boostrank-installed
# Snakemake with ARGS appended as words (boostrank/workflow/make_run.py, which echoes the command):
# split as a shell would, nothing in them expanded or run, a missing --configfile named in one line.
SNAKEMAKE := $(BIN)/python -m boostrank.workflow.make_run $(BIN)/snakemake --profile profiles/local

# What a user types after `make` (FIG, NAME, ARGS, RUN, READINGS_CONFIG, PROTOCOL, ONLY, READING,
# FORCE) reaches the
# recipes as environment variables holding the text as typed ($(value ...): make expands nothing
# in it, and unexport keeps make from expanding it for the environment), which the recipes
# quote: no such value is ever read as shell or make code.
RUN ?= .
READINGS_CONFIG ?= config/quick.yaml
export BOOSTRANK_FIG := $(or $(value FIG),$(value NAME))
export BOOSTRANK_MAKE_ARGS := $(value ARGS)
export BOOSTRANK_RUN := $(value RUN)
export BOOSTRANK_READINGS_CONFIG := $(value READINGS_CONFIG)
export BOOSTRANK_PROTOCOL := $(value PROTOCOL)
export BOOSTRANK_ONLY := $(value ONLY)
export BOOSTRANK_READING := $(value READING)
unexport FIG NAME ARGS RUN READINGS_CONFIG PROTOCOL ONLY READING FORCE

.PHONY: help install lock reproduce quick readings report test test-fast test-slurm lint bench dry-run \
  figure list-figures readme-results slurm-resources clean

help:  ## this list
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:[^#]*## /\t/' | expand -t 18

# The Python versions pyproject.toml's requires-python allows (tests/unit/test_makefile_install.py
# keeps the two in step), and a check an interpreter passes when it is one of them.
PYTHON_VERSIONS := >=3.11,<3.13
PYTHON_OK := import sys; sys.exit(not (3, 11) <= sys.version_info[:2] < (3, 13))
PARTIAL := $(VENV)/.boostrank-partial

# The interpreter first (one line if it is not a version the package supports). A .venv that an
# unfinished install left (PARTIAL is there until the install completes) or that another
# Python made is removed first, never reused. Then the exact versions with hashes
# (requirements.lock, from pyproject.toml by `make lock`), and the package without dependencies.
$(STAMP): pyproject.toml requirements.lock
	@$(PYTHON) -c '$(PYTHON_OK)' 2>/dev/null || { \
	  echo "make install: '$(PYTHON)' is $$($(PYTHON) -V 2>/dev/null || echo 'not a Python that runs'), but boostrank needs Python $(PYTHON_VERSIONS): pick another with make install PYTHON=python3.11" >&2; \
	  exit 1; }
	@if [ -e $(PARTIAL) ] || { [ -e $(VENV) ] && ! $(BIN)/python -c '$(PYTHON_OK)' 2>/dev/null; }; then \
	  echo "make install: removing $(VENV), which an unfinished install or another Python left"; \
	  rm -rf $(VENV); fi
	$(PYTHON) -m venv $(VENV)
	touch $(PARTIAL)
	rm -f $(STAMP)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	rm -f $(PARTIAL)
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install boostrank with its pinned dependencies

lock:  ## refresh requirements.lock and environment.yml from pyproject.toml (uv pip compile)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "uv>=0.5"
	$(BIN)/uv pip compile pyproject.toml --extra test --generate-hashes --python-version 3.11 \
	  --python-platform x86_64-manylinux_2_28 --no-header -o requirements.lock
	$(BIN)/python tools/environment_from_lock.py requirements.lock environment.yml

reproduce: $(STAMP)  ## the full reproduction with config/config.yaml [ARGS=...]
	@$(SNAKEMAKE)

quick: $(STAMP)  ## the same DAG, smaller (config/quick.yaml) [ARGS=...]
	@$(SNAKEMAKE) --configfile config/quick.yaml

# The README's claim tally (and docs/last-run.json) from a full run's results/claims.csv:
# RUN is the run's directory, whose checked-out commit is recorded.
readme-results: $(STAMP)  ## the README's claim tally from a full run [RUN=<run dir>]
	$(BIN)/python -m boostrank headline "$$BOOSTRANK_RUN/results/claims.csv" \
	  --commit "$$(git -C "$$BOOSTRANK_RUN" rev-parse --short HEAD)"

# Every reading of config/readings.yaml under each of its options, on real data: a copy of the
# workflow per (reading, option). Stage 1, the screen (make readings): every reading, on
# config/quick.yaml by default (READINGS_CONFIG=...), under results/readings/, into
# results/readings.csv and figures/readings.png. Stage 2 (PROTOCOL=full): on config/config.yaml,
# only the readings the screen found to change a verdict or move a claim by more than half its
# tolerance, under results/readings-full/, into results/readings_confirm.csv, whose rows the
# claims page and the diagnoses read in place of the screen's. ONLY=<id>[,<id>]: those readings
# at the printed protocol, with each figure they move drawn beside the default's.
readings: $(STAMP)  ## how each reading moves the published numbers [PROTOCOL=full] [ONLY=<id>]
	@case "$$BOOSTRANK_PROTOCOL" in ""|quick|full) ;; *) \
	  echo "make readings: PROTOCOL is neither quick (the screen, the default) nor full (stage 2 at the printed protocol)" >&2; exit 2;; esac
	@if [ -n "$$BOOSTRANK_ONLY" ]; then $(BIN)/python -m boostrank readings-only "$$BOOSTRANK_ONLY" >/dev/null; fi
	@if [ "$$BOOSTRANK_PROTOCOL" = full ] || [ -n "$$BOOSTRANK_ONLY" ]; then \
	  $(SNAKEMAKE) --snakefile workflow/readings.smk --configfile config/config.yaml \
	    --config readings_stage=confirm "readings_only=$$BOOSTRANK_ONLY"; \
	else \
	  $(SNAKEMAKE) --snakefile workflow/readings.smk --configfile "$$BOOSTRANK_READINGS_CONFIG"; \
	fi

report: $(STAMP)  ## Snakemake's report of the last run: results/snakemake-report.zip [ARGS=...]
	@$(SNAKEMAKE) --report results/snakemake-report.zip

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
	@$(SNAKEMAKE) -n

list-figures: $(STAMP)  ## every figure and table: source, rules, functions, targets
	@$(BIN)/python -m boostrank figures --rules

# The figure-to-code table, from config/figures.yaml and each work's spec.FIGURES
# (tests/unit/test_figure_code.py checks that the committed file is what this writes now).
docs-figures: $(STAMP)  ## regenerate docs/figures.md from the figure catalogue
	$(BIN)/python -m boostrank figures --markdown > docs/figures.md.tmp && mv docs/figures.md.tmp docs/figures.md

# One figure or table, from cached results: only its own jobs and what they need that is out of
# date run (not the report, which needs every figure). FIG=<id> (NAME=<id> also works), checked
# against the catalogue; FORCE=1 reruns its final job even if up to date. Ids: make list-figures.
# ARGS: more snakemake options, after the targets (e.g. ARGS="--configfile config/quick.yaml").
# READING=<reading>=<option>: the figure under that option at the printed protocol, beside the
# default's, with the claims whose verdict changes (figures/readings/<id>__<variant>.png; make
# readings' confirm stage, so every job the option does not change is reused).
figure: $(STAMP)  ## regenerate one figure or table: make figure FIG=thesis-fig3_1 [FORCE=1] [READING=r=o]
	@test -n "$$BOOSTRANK_FIG" || { echo "usage: make figure FIG=<id>   (ids: make list-figures)"; exit 2; }
	@if [ -n "$$BOOSTRANK_READING" ]; then \
	  target=$$($(BIN)/python -m boostrank figures "$$BOOSTRANK_FIG" --reading "$$BOOSTRANK_READING") && \
	  $(SNAKEMAKE) $(if $(value FORCE),--force,) "$$target" --snakefile workflow/readings.smk \
	    --configfile config/config.yaml --config readings_stage=confirm "readings_only=$${BOOSTRANK_READING%%=*}"; \
	else \
	  targets=$$($(BIN)/python -m boostrank figures "$$BOOSTRANK_FIG") && \
	  $(SNAKEMAKE) $(if $(value FORCE),--force,) $$targets; \
	fi

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
