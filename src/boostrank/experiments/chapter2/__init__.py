"""Figures 2.1-2.3 of Valizadegan (2010), *Boosting and Online Learning for Classification and
Ranking*, chapter 2 (section 2.4, "Experiments"): test error of the decision tree ("Tree"),
ASSEMBLE, MCSSB, MCSSB-Uniform and MCSSB-Absolute on the seven classification data sets of
section 1.6.1 (Isolet, MNIST, Protein, Optdigits, Nursery, Letter, Pendigits).

- :mod:`.spec`: the figures, data sets and methods, and each job's parameters (run by
  ``boostrank job chapter2.run`` and ``chapter2.figure``), config keys and code;
- :mod:`.jobs`: the protocol of section 2.4.1 and the run job (one method on one data set);
- :mod:`.summary`: the merge of the run CSVs into the tidy results and the claim statistics;
- :mod:`.figure`: the drawing of Figures 2.1-2.3;
- :mod:`.make`: the figure job (merge and summarise, write the results CSVs, draw).
"""
