"""Data registry, sources (mirror, canonical download, embedded, synthetic), loaders and folds."""
