"""Zheng et al. (2007), "A General Boosting Method and its Application to Learning Ranking
Functions for Web Search" (NIPS 2007), section 4: Table 1 (precision at K% on P3,
``qbrank-table1``) and Figure 1 (DCG-5 against the number of trees, ``qbrank-fig1``) of QBRank,
GBT and RankSVM, on LETOR 4.0 in place of the proprietary Yahoo! data.

Parts: :mod:`.spec` (the six models, ids, each job's parameters, run by ``boostrank job
qbrank.train`` and ``qbrank.figure``, config keys and code roots), :mod:`.jobs` (the L1/L2/L3
split, DCG and precision at K%, training one model on one split), :mod:`.summary` (Table 1,
Figure 1's curves and the claim statistics), :mod:`.figure` (the figure and table files) and
:mod:`.make` (the figure job: merge, write, draw).
"""
