"""Figure 3.1 of Valizadegan (2010), *Boosting and Online Learning for Classification and
Ranking*, chapter 3 (section 3.4, "Experiments"): NDCG@1..10 of NDCG_Boost and LETOR 3.0's
baselines (+ LambdaMART as a dashed reference) on the seven LETOR 3.0 data sets
(``thesis-fig3_1``, its table and results CSVs).

- :mod:`.spec`: the algorithm table, data sets, ids and files, and each job's parameters (run by
  ``boostrank job chapter3.train``, ``chapter3.qrels``, ``chapter3.evaluate`` and
  ``chapter3.figure``), config keys and code;
- :mod:`.jobs`: training one algorithm on one fold, the folds' qrels, the evaluation of a data
  set's run files;
- :mod:`.summary`: the tidy results, LETOR's published values, the cells the comparative claims
  rank, the claim statistics, NDCG_Boost's intervals and the table's numbers;
- :mod:`.figure`: the drawing of Figure 3.1 and its table files;
- :mod:`.make`: the figure job (merge and summarise, write, draw).
"""
