"""Figure 3.1 of Valizadegan (2010), *Boosting and Online Learning for Classification and
Ranking*, chapter 3 (section 3.4, "Experiments"): NDCG@1..10 of NDCG_Boost and LETOR 3.0's
baselines (+ LambdaMART as a dashed reference) on the seven LETOR 3.0 data sets
(``thesis-fig3_1``, its table and results CSVs).

Parts: :mod:`.spec` (the algorithm table, data sets, ids, each job's config keys and code
roots), :mod:`.jobs` (training one algorithm on one fold, the folds' qrels, the evaluation of a
data set's run files), :mod:`.summary` (the tidy results, LETOR's published values, the cells
the comparative claims rank, the claim statistics and the table's numbers), :mod:`.figure`
(Figure 3.1 and its table files) and :mod:`.cli` (the ``chapter3-*`` sub-commands).
"""
