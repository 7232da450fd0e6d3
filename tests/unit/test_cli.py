"""The command line: figure listing and clear errors."""

import pytest

from boostrank.cli import main


def test_figures_lists_every_figure_with_its_targets(capsys):
    assert main(["figures"]) == 0
    out = capsys.readouterr().out
    assert "thesis-table1_1" in out and "figures/tables/thesis-table1_2.csv" in out


def test_one_figure_prints_its_target_files(capsys):
    assert main(["figures", "thesis-table1_1"]) == 0
    assert capsys.readouterr().out.split() == [
        f"figures/tables/thesis-table1_1.{ext}" for ext in ("csv", "md", "tex")
    ]


def test_unknown_figure_name_lists_the_known_ones(capsys):
    assert main(["figures", "thesis-fig9_9"]) == 1
    err = capsys.readouterr().err
    assert "unknown figure or table 'thesis-fig9_9'" in err and "thesis-table1_2" in err


def test_unknown_data_set_is_a_clear_error(capsys, tmp_path):
    code = main(["fetch", "ohsumd", "--raw-dir", str(tmp_path / "x")])
    assert code == 1
    assert "unknown data set 'ohsumd'" in capsys.readouterr().err


def test_bad_arguments_exit_with_usage():
    with pytest.raises(SystemExit):
        main(["fetch"])
