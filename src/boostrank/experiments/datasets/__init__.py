"""Tables 1.1 and 1.2 of the dissertation (Valizadegan 2010, section 1.6): the benchmark data
sets, computed from the data the run actually used, beside the published values; and LETOR 3.0's
OHSUMED feature list (Qin et al. 2010; used in section 1.6.2): its 45 features rebuilt from the
raw statistics in Meta/ and checked against the distributed ones.

- :mod:`.spec`: the table ids, their columns and the names and splits of the data sets, and
  each job's parameters (run by ``boostrank job datasets.table`` and ``datasets.letor3_features``);
- :mod:`.jobs`: the processed sidecars the tables are computed from; :mod:`.jobs_letor`: the
  LETOR 3.0 features' rebuild and check (the features:
  :mod:`boostrank.preprocess.letor_features`);
- :mod:`.summary`: the rows of Tables 1.1 and 1.2 and their published values;
  :mod:`.summary_letor`: the LETOR 3.0 feature table's rows and summary;
- :mod:`.figure`, :mod:`.figure_letor`: the table files (CSV, Markdown, LaTeX);
- :mod:`.make`, :mod:`.make_letor`: the jobs (rows, then files).
"""
