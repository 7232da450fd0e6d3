"""Learning-to-rank algorithms, scikit-learn style: fit(X, y, qid), predict(X)."""
