# boostrank: reproduce every table and figure of Valizadegan (2010) and four related works.
#   snakemake --profile profiles/local                          # everything (make reproduce)
#   snakemake --profile profiles/local --configfile config/quick.yaml   # small and fast
#   python -m boostrank figures                                 # targets of single figures

from snakemake.utils import min_version

from boostrank.workflow.config_check import check_working_directory

min_version("9.27.1")

# config/config.yaml of the working directory is the default configuration: say where it looked.
if not workflow.modifier.skip_configfile:
    check_working_directory(workflow.basedir)


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/preprocess.smk"


# Each work's rules (workflow/rules/<work>*.smk), for every work with a
# src/boostrank/experiments/<work>/spec.py (boostrank.experiments.job.WORKS).
for _rules in work_rule_files():

    include: _rules


include: "workflow/rules/report.smk"


onsuccess:
    # No stand-in passes for the real thing: a run that used any says so at the end.
    if _standins := standin_summary():
        print(_standins, file=sys.stderr)
    # The timing record: each figure's jobs, Snakemake's own CPU, wall time, peak RSS, and
    # the critical path and simulated wall time on more cores of the job graph; this run's own
    # under logs/timing/, and results/timing.csv, the last run to end. The results are made: a
    # record that cannot be written (a full disk) is one line, not a traceback.
    record_run(
        "results/timing.csv",
        CATALOG,
        config["timing"]["budgets_cpu_s"],
        made="the results are",
        started=STARTED,
        log_files=log,
        command=" ".join(sys.argv[1:]),
        dag=workflow.dag,
    )


rule all:
    default_target: True
    input:
        figure_outputs(),
        "results/datasets.csv",
        "results/claims.csv",
        "results/report.html",
    localrule: True
