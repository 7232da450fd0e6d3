"""Crammer & Singer (2005), "Online Ranking by Projecting", Neural Computation, section 6: the
PRank family (PRank, Si-PRank, No-PRank, Mu-PRank) against the multiclass perceptron (MCP) and
Widrow-Hoff (WH) -- Figure 6 (the paper's synthetic data, degree-2 polynomial kernel;
``prank-fig6``) and Figure 7 (MovieLens 100K substituting for EachMovie; ``prank-fig7``).

Parts: ``spec`` (figure ids, learner names, code roots, and the jobs' parameters, run by
``boostrank job prank.fig6`` and ``prank.fig7``), ``jobs`` (the sequences and the learners'
runs), ``summary`` (tidy curves and claim statistics), ``figure`` (drawing), ``make`` (the two
jobs: run, summarise, write, draw).
"""
