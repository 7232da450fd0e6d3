"""Online learners: multi-class classification with bandit feedback (dissertation chapters 5
and 6), online ordinal ranking (PRank and its baselines) and online boosting with top-k
feedback. All follow one protocol, :class:`boostrank.online.base.OnlineLearner`. Each module is
self-contained; import the one you need (nothing is imported here, so a job pays only for what
it runs)."""
