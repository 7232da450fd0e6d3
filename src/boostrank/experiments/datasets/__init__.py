"""Tables 1.1 and 1.2 of the dissertation (Valizadegan 2010, section 1.6): the benchmark data
sets, computed from the data the run actually used, beside the published values; and Table 1.3:
LETOR 3.0 OHSUMED's 45 features rebuilt from the raw statistics in Meta/ (Qin et al. 2010) and
checked against the distributed ones.

- :mod:`.spec`: the table ids, their columns and the names and splits of the data sets, and
  each job's parameters (run by ``boostrank job datasets.table`` and ``datasets.table1_3``);
- :mod:`.jobs`: the processed sidecars the tables are computed from; :mod:`.jobs_letor`: Table
  1.3's rebuild and check (the features: :mod:`boostrank.preprocess.letor_features`);
- :mod:`.summary`: the rows of Tables 1.1 and 1.2 and their published values;
  :mod:`.summary_letor`: Table 1.3's rows and summary;
- :mod:`.figure`, :mod:`.figure_letor`: the table files (CSV, Markdown, LaTeX);
- :mod:`.make`, :mod:`.make_letor`: the jobs (rows, then files).
"""
