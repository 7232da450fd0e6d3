"""The LaTeX tables: every character of a cell, heading or caption is typeset as text."""

import pandas as pd
import pytest

from boostrank.report.render import latex, latex_text, write_table

SPECIALS = "#$%&~_^\\{}<>|"
# What the generated tables hold beyond ASCII (the LETOR 3.0 feature table's headings, Figure
# 3.1's mean ± sd), and characters no font of the default set-up has.
UNICODE = "max |Δ| Spearman ρ ÷ bound ± σ ≤ 1 − 2 — “é” ﬁ ☃"


def test_each_latex_special_becomes_its_text_command():
    assert latex_text("2^r-1") == r"2\textasciicircum{}r-1"
    assert latex_text("a\\b") == r"a\textbackslash{}b"  # not \\, a line break
    assert latex_text("{C}_#$%&~") == r"\{C\}\_\#\$\%\&\textasciitilde{}"
    assert latex_text("<=|x|") == r"\textless{}=\textbar{}x\textbar{}"
    assert latex_text("|Δ| ρ") == r"\textbar{}\ensuremath{\Delta}\textbar{} \ensuremath{\rho}"
    assert latex_text("± ÷ é") == "± ÷ é"  # utf8 input and the TS1 symbols cover Latin-1
    assert latex_text("ﬁ ☃") == "fi [U+2603]"


def test_a_backslash_in_a_cell_does_not_end_the_row():
    frame = pd.DataFrame({"a\\": ["x\\\\y", "\\"], "b": ["1", "2"]})
    rows = latex(frame, "caption \\ with \\\\").splitlines()
    assert sum(line.endswith(" \\\\") for line in rows) == 3  # heading and two rows
    assert sum(line.count("\\\\") for line in rows) == 3


def _compile_all(tmp_path, tables):
    from latex import MISSING, compile_table, pdflatex

    binary = pdflatex()  # installed from Debian's archive when missing, as root
    if binary is None:
        pytest.fail(MISSING)
    errors = [compile_table(binary, t, tmp_path / "build" / t.stem) for t in tables]
    assert not any(errors), "\n\n".join(filter(None, errors))


def test_tables_with_every_special_character_compile_with_pdflatex(tmp_path):
    cells = [SPECIALS, UNICODE, SPECIALS + UNICODE, "plain"]
    tables = []
    for name, caption in [("specials", SPECIALS), ("unicode", UNICODE), ("plain", "A table")]:
        frame = pd.DataFrame({SPECIALS: cells, UNICODE: cells[::-1]})
        write_table(tmp_path / name, frame, frame, caption)
        tables.append(tmp_path / f"{name}.tex")
    _compile_all(tmp_path, tables)


def test_the_compile_check_catches_an_unescaped_character(tmp_path):
    from latex import compile_table, pdflatex

    binary = pdflatex()
    if binary is None:
        pytest.skip("no pdflatex: the test above fails and says what to install")
    bad = tmp_path / "bad.tex"
    bad.write_text("\\begin{tabular}{l}\nC=2^2 Δ \\\\\n\\end{tabular}\n", encoding="utf-8")
    assert "Missing $ inserted" in compile_table(binary, bad, tmp_path / "build")
