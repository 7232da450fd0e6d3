"""Chapter 4 of Valizadegan (2010), *Boosting and Online Learning for Classification and
Ranking*: ranking refinement by boosting (sections 4.3-4.4), Figures 4.1-4.6 -- MRR and LRR
against the base ranker, Rocchio and Ranking-SVM, for relevance feedback on the seven LETOR 3.0
data sets (Figures 4.1-4.4) and for MovieLens 100K recommendations (Figures 4.5-4.6).

Parts: :mod:`.spec` (data sets, method families and labels, figure ids, each kind of job's
parameters, config keys and code roots, the paths of the jobs' results), :mod:`.jobs` (the
queries, evaluation and method runners every job shares), :mod:`.jobs_base` (the base-ranker
choice), :mod:`.jobs_feedback` (the relevance-feedback jobs of Figures 4.2-4.4),
:mod:`.jobs_objective` (Figure 4.1's objective job), :mod:`.jobs_movies` (the MovieLens split
and jobs of Figures 4.5-4.6), :mod:`.jobs_curves` (per-query curves, replicates and rows),
:mod:`.summary` (the merge of the job results into each figure's tidy results and claim
statistics: :mod:`.summary_objective`, :mod:`.summary_feedback`, :mod:`.summary_movies`,
:mod:`.summary_samples`, on :mod:`.summary_curves`), :mod:`.figure` (the drawing of Figures
4.1-4.6) and :mod:`.make` (the figure job: summarise, write, draw).
"""
