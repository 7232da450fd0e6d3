"""What Sengupta (2018), *Document Analysis -- Clustering, Classification and Ranking*, prints
for its ranking experiments, typed in as the paper's input: the published tables of section
"Results" (five-fold means of NDCG@10 on LETOR 4.0 MQ2007; the comparison values of the
reproduction) and the toy example of section "Working on a toy dataset" (its feature matrix,
LambdaMART's ten printed trees and the printed linear-regression weights). Nothing here is a
result of this pipeline.
"""

from __future__ import annotations

import numpy as np

# --- Published tables: config key -> (train, validation, test) NDCG@10, five-fold means. ---
# The keys are the configuration strings of boostrank.experiments.docan_ranking.config_key.
# Table 2, LambdaMART: trees (6 leaves, learning rate 0.1).
TABLE2 = {
    "trees=1500": (0.48292, 0.45228, 0.44894),
    "trees=500": (0.48292, 0.45228, 0.44894),
    "trees=100": (0.47558, 0.45122, 0.44864),
    "trees=10": (0.43802, 0.43444, 0.43128),
    "trees=20": (0.44822, 0.43962, 0.43618),
    "trees=50": (0.4615, 0.44822, 0.44326),
    "trees=75": (0.4688, 0.4493, 0.44656),
    "trees=90": (0.47148, 0.45024, 0.44722),
    "trees=200": (0.48292, 0.45228, 0.44894),
    "trees=150": (0.48292, 0.45228, 0.44894),
    "trees=125": (0.48252, 0.45224, 0.44918),
}
# Table 3, RankNet: epochs, hidden layers, nodes per layer.
TABLE3 = {
    "epochs=100 layers=1 nodes=10": (0.42394, 0.42646, 0.42274),
    "epochs=100 layers=1 nodes=20": (0.42632, 0.42792, 0.42448),
    "epochs=100 layers=1 nodes=30": (0.42462, 0.42864, 0.42364),
    "epochs=100 layers=1 nodes=40": (0.425, 0.42756, 0.42578),
    "epochs=200 layers=1 nodes=40": (0.42628, 0.4286, 0.42322),
    "epochs=100 layers=1 nodes=50": (0.42582, 0.43006, 0.42394),
    "epochs=200 layers=1 nodes=50": (0.4252, 0.4296, 0.42234),
    "epochs=100 layers=2 nodes=10": (0.38002, 0.3763, 0.37968),
}
# Table 4, linear regression: L2 regularisation.
TABLE4 = {
    "l2=1e-10": (0.43274, 0.42722, 0.42772),
    "l2=1": (0.43306, 0.42806, 0.42752),
    "l2=100000": (0.40606, 0.40466, 0.4049),
}
# Tables 5 and 6, RankSVM on Nystroem / random Fourier features: N components, C, gamma.
# The report prints C as "2", "-2", "3" and gamma as "2^-7": read as exponents, C = 2^2, 2^-2, 2^3.
TABLE5 = {
    "N=440 C=2^2 gamma=2^-6": (0.43006, 0.41612, 0.42044),
    "N=400 C=2^-2 gamma=2^-7": (0.42272, 0.41456, 0.41792),
    "N=400 C=2^3 gamma=2^-7": (0.4331, 0.42006, 0.42064),
    "N=500 C=2^-2 gamma=2^-7": (0.42126, 0.41262, 0.41742),
    "N=500 C=2^3 gamma=2^-7": (0.43368, 0.41552, 0.41984),
    "N=600 C=2^-2 gamma=2^-7": (0.4214, 0.41438, 0.41714),
    "N=600 C=2^3 gamma=2^-7": (0.43014, 0.41514, 0.42104),
    "N=700 C=2^-2 gamma=2^-7": (0.42126, 0.41436, 0.41852),
    "N=700 C=2^3 gamma=2^-7": (0.4327, 0.42066, 0.42162),
    "N=800 C=2^-2 gamma=2^-7": (0.42176, 0.41298, 0.41772),
    "N=800 C=2^3 gamma=2^-7": (0.43526, 0.42044, 0.41906),
    "N=900 C=2^-2 gamma=2^-7": (0.422, 0.41318, 0.41772),
    "N=900 C=2^3 gamma=2^-7": (0.43388, 0.42262, 0.4202),
    "N=1000 C=2^-2 gamma=2^-7": (0.4218, 0.41258, 0.41852),
    "N=1000 C=2^3 gamma=2^-7": (0.4378, 0.41946, 0.41924),
    "N=1500 C=2^-2 gamma=2^-7": (0.4218, 0.413, 0.41852),
    "N=1500 C=2^3 gamma=2^-7": (0.43718, 0.4218, 0.41886),
    "N=2000 C=2^-2 gamma=2^-7": (0.4218, 0.41318, 0.41832),
    "N=2000 C=2^3 gamma=2^-7": (0.43782, 0.42046, 0.42164),
    "N=2000 C=2^-2 gamma=2^-5": (0.43414, 0.42186, 0.41988),
}
TABLE6 = {
    "N=440 C=2^2 gamma=2^-6": (0.42074, 0.41516, 0.4183),
    "N=400 C=2^-2 gamma=2^-7": (0.43, 0.4161, 0.41986),
    "N=400 C=2^3 gamma=2^-7": (0.42062, 0.47476, 0.41852),
    "N=500 C=2^-2 gamma=2^-7": (0.43308, 0.42102, 0.42004),
    "N=500 C=2^3 gamma=2^-7": (0.42114, 0.41438, 0.41812),
    "N=600 C=2^-2 gamma=2^-7": (0.43414, 0.42144, 0.43144),
    "N=600 C=2^3 gamma=2^-7": (0.42174, 0.41378, 0.41792),
    "N=700 C=2^-2 gamma=2^-7": (0.4344, 0.43938, 0.41948),
    "N=700 C=2^3 gamma=2^-7": (0.42128, 0.4203, 0.42502),
    "N=800 C=2^-2 gamma=2^-7": (0.4323, 0.41374, 0.41768),
    "N=800 C=2^3 gamma=2^-7": (0.42184, 0.4124, 0.41852),
    "N=900 C=2^-2 gamma=2^-7": (0.43478, 0.41984, 0.423),
    "N=900 C=2^3 gamma=2^-7": (0.42142, 0.41258, 0.41852),
    "N=1000 C=2^-2 gamma=2^-7": (0.43554, 0.41866, 0.42064),
    "N=1000 C=2^3 gamma=2^-7": (0.4218, 0.41318, 0.41832),
    "N=1500 C=2^-2 gamma=2^-7": (0.43734, 0.41868, 0.41946),
    "N=1500 C=2^3 gamma=2^-7": (0.4218, 0.41318, 0.41832),
    "N=2000 C=2^-2 gamma=2^-7": (0.44048, 0.41928, 0.42064),
    "N=2000 C=2^3 gamma=2^-7": (0.43538, 0.4179, 0.41966),
    "N=2000 C=2^-2 gamma=2^-5": (0.42074, 0.41516, 0.4183),
}
PUBLISHED = {
    "docan-table2": TABLE2,
    "docan-table3": TABLE3,
    "docan-table4": TABLE4,
    "docan-table5": TABLE5,
    "docan-table6": TABLE6,
}

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

# The report's test NDCG on query 4 for each model.
TOY_PUBLISHED = {"ranknet": 0.7320, "linear": 0.6183, "lambdamart": 0.9469}

# --- The 2-D pairwise-transform demo: Kendall tau per block. ---
DEMO_PUBLISHED = {
    ("ridge", 0): 0.71122,
    ("ridge", 1): 0.84387,
    ("ranksvm", 0): 0.83627,
    ("ranksvm", 1): 0.84387,
}


def toy_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The toy matrix as ``(X (20 x 6), y, qid)``, rows in printed order."""
    table = np.array(TOY_ROWS, dtype=np.float64)
    return table[:, 1:7], table[:, 7].astype(np.int64), table[:, 0].astype(np.int64)
