"""What Sengupta (2018), *Document Analysis -- Clustering, Classification and Ranking*, prints
as the *input* of its ranking examples, typed in: the toy example of section "Working on a toy
dataset" (its feature matrix, LambdaMART's ten printed trees and the printed linear-regression
weights). The numbers it publishes as *results* (Tables 2-8) are claims, in
``config/claims.yaml`` only. Nothing here is a result of this pipeline.
"""

from __future__ import annotations

import numpy as np

# --- The toy example ("Working on a toy dataset"): 4 queries x 5 documents. ---
# Features: F1 words in the query, F2 words in the document, F3 row mean of TF, F4 row mean of
# DF, F5 row mean of TF-IDF, F6 Boolean retrieval; then the printed relevance label.
# Queries 1-3 train, query 4 tests. Rows exactly as the report's matrix prints them.
TOY_ROWS = [
    # qid, F1, F2, F3, F4, F5, F6, label
    (1, 2, 12, 0.2222, 1.331, 0.039, 4, 1),
    (1, 2, 13, 0.24074, 1.4262, 0.04157, 3, 0),
    (1, 2, 10, 0.185185, 1.01, 0.03684, 2, 1),
    (1, 2, 17, 0.314815, 2.5635, 0.040183, 3, 0),
    (1, 2, 12, 0.2222, 1.2699, 0.03683, 2, 0),
    (2, 1, 12, 0.2222, 1.331, 0.039, 0, 0),
    (2, 1, 13, 0.24074, 1.4262, 0.04157, 1, 1),
    (2, 1, 10, 0.185185, 1.01, 0.03684, 0, 0),
    (2, 1, 17, 0.314815, 2.5635, 0.040183, 0, 0),
    (2, 1, 12, 0.2222, 1.2699, 0.03683, 0, 0),
    (3, 2, 12, 0.2222, 1.331, 0.039, 2, 1),
    (3, 2, 13, 0.24074, 1.4262, 0.04157, 0, 0),
    (3, 2, 10, 0.185185, 1.01, 0.03684, 1, 1),
    (3, 2, 17, 0.314815, 2.5635, 0.040183, 0, 0),
    (3, 2, 12, 0.2222, 1.2699, 0.03683, 0, 0),
    (4, 1, 12, 0.2222, 1.331, 0.039, 2, 1),
    (4, 1, 13, 0.24074, 1.4262, 0.04157, 2, 1),
    (4, 1, 10, 0.185185, 1.01, 0.03684, 1, 0),
    (4, 1, 17, 0.314815, 2.5635, 0.040183, 1, 0),
    (4, 1, 12, 0.2222, 1.2699, 0.03683, 2, 1),
]
TOY_TEST_QUERY = 4

# LambdaMART's ten printed trees: (feature 1-based, threshold, left output, right output, weight).
TOY_TREES = [
    (6, 3.0, -0.4060202, 2.0, 0.1),
    (6, 3.0, -0.35845292, 1.7861544, 0.1),
    (6, 3.0, -0.28415188, 1.5218648, 0.1),
    (6, 3.0, -0.3184343, 1.6344081, 0.1),
    (6, 3.0, -0.2543091, 1.4356358, 0.1),
    (5, 0.04, -0.46357542, 1.3221567, 0.1),
    (5, 0.04, -0.77627546, 1.2945518, 0.1),
    (5, 0.04, -0.90781724, 1.4976496, 0.1),
    (5, 0.04, -0.67229265, 1.1416975, 0.1),
    (5, 0.04, -0.58660144, 1.0191938, 0.1),
]
# The seven printed linear-regression weights ("the additional weight is ... the bias").
TOY_LINEAR_WEIGHTS = (0.3, 0.3, 260.417, -14069.7, 0.0991, 102.5418, -2.51399)


def toy_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The toy matrix as ``(X (20 x 6), y, qid)``, rows in printed order."""
    table = np.array(TOY_ROWS, dtype=np.float64)
    return table[:, 1:7], table[:, 7].astype(np.int64), table[:, 0].astype(np.int64)
