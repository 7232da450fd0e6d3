"""Tables 1.1 and 1.2 of the dissertation (Valizadegan 2010, section 1.6): the benchmark data
sets, computed from the data the run actually used, beside the published values.

- :mod:`.spec`: the table ids, their columns and the names and splits of the data sets;
- :mod:`.jobs`: the processed sidecars the tables are computed from;
- :mod:`.summary`: the rows of Tables 1.1 and 1.2 and their published values;
- :mod:`.figure`: the table files (CSV, Markdown, LaTeX);
- :mod:`.cli`: the ``table`` command.
"""
