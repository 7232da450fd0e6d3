"""Claims checking and the self-contained HTML report."""
