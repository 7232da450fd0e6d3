"""Zhang, Jung & Tewari (2019), *Online Boosting for Multilabel Ranking with Top-k Feedback*,
section 4: Table 1 (``topk-table1``: TopOpt/TopAda with top-k feedback against FullOpt/FullAda
with full information on five MULAN data sets) and Figure 2 (``topk-fig2``: TopkBBM's learning
curves on Yeast for several k).

``spec`` names the algorithms, data sets and jobs (and their parameters, run by ``boostrank job
topk.<kind>``); ``jobs`` writes each data set's split and trains one booster per (data set,
algorithm, k, seed); ``summary`` turns the run records into the table and the claims'
statistics; ``figure`` renders the table and draws Figure 2; ``make`` (the table and figure
jobs) merges the records, writes the results CSVs and calls ``figure``.
"""
