"""Chapters 5 and 6 of Valizadegan (2010), *Boosting and Online Learning for Classification
and Ranking*: online multi-class learning with bandit feedback (sections 5.4 and 6.4) on the
seven classification data sets of Table 1.1 -- the exponential gradient (Algorithm 9), the
Banditron (Algorithm 7), Banditron_Pos, the Perceptron (full feedback) and the adaptive
exploration rules ag0..ag3 (Algorithm 10, section 6.3).

Figures 5.1, 5.2, 6.1 and 6.2 (``thesis-fig5_1``, ``thesis-fig5_2``, ``thesis-fig6_1``,
``thesis-fig6_2``) and the supplementary sweep of the exponential gradient's step factor
(``thesis-supp5_eta``). Parts: ``spec`` (names, data sets, code roots, and the jobs'
parameters, run by ``boostrank job chapter5_6.<kind>``), ``jobs`` (the run jobs), ``summary``
(tables and claim statistics), ``figure`` (drawing), ``make`` (the figure jobs: merge and
summarise, write, draw).
"""
