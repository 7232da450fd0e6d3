"""Online learners: multi-class classification with bandit feedback (dissertation chapters 5
and 6) and, later, online boosting with top-k feedback. Each module is self-contained; import
the one you need (nothing is imported here, so a job pays only for what it runs)."""
