"""Sengupta (2018), *Document Analysis -- Clustering, Classification and Ranking* (B.Tech.
report, Shiv Nadar University):

- Reuters-21578 (section "Dataset description" and "Results"): Figure 4 (topic frequencies),
  Figure 5 (K-means WSS and the Gaussian mixture's AIC/BIC), Figures 6 and 7 (k-NN accuracy
  against k, cosine and Euclidean) and the random forest's accuracy (``docan-table1``);
- LETOR ranking (sections "Results" and "Working on a toy dataset"): Tables 2-6 (LambdaMART,
  RankNet, linear regression, RankSVM on Nystroem / random Fourier features, NDCG@10 over the
  LETOR 4.0 folds), Table 7 (the toy example) and Table 8 (the 2-D pairwise-transform demo).

``spec`` holds the ids, configurations, the report's printed toy inputs and the jobs (their
parameter objects, run by ``boostrank job docan.<kind>``); ``jobs`` (Reuters) and
``jobs_ranking`` (LETOR, toy, demo) fit and evaluate; ``summary`` turns their results into
tables and the claims' numbers (``summary_ranking``: the statistics of Tables 2-6's orderings);
``figure`` draws and writes them; ``make`` (Reuters) and
``make_ranking`` (the ranking tables) run the figure and table jobs (summary, then figure).
"""
