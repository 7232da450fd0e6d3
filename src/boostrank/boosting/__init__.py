"""Semi-supervised multi-class boosting (dissertation chapter 2): the decision-tree base learner
(:mod:`.base`), ASSEMBLE (:mod:`.assemble`) and MCSSB with its Uniform/Absolute variants
(:mod:`.mcssb`). Every estimator follows scikit-learn: ``fit(X, y)`` with ``y = -1`` marking
unlabelled rows, ``predict``, ``predict_proba``."""
