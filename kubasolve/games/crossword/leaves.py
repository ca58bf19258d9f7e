"""Learnt leave tables of the crossword AIs: a value for every multiset of kept tiles (up to rack size - 1).

A table (``data/leaves_<tiles>.npz``, made by ``kubasolve crossword learn-leaves``, see
:mod:`kubasolve.games.crossword.learn` and ``docs/crossword.md``) holds sorted leave keys (the kept tiles
in rack order: letters A-Z, blanks ``?`` last, as byte strings) and their values in points. Leaves
missing from it (never seen in self-play, or pruned because their value equals the fallback) get the
fallback: the mean over their distinct tiles ``t`` of ``value(leave - t) + value(t)``, the additive
estimate from the sub-leaves (the same estimate the learning shrinks rare leaves toward, so pruning a
leave whose value equals it loses nothing). Files are loaded lazily, once per process.

:func:`rack_leave_values` values every sub-rack of a rack at once (at most 2^7 of them), which is
what the fast equity ranking of :mod:`kubasolve.games.crossword.ai` needs for each move generation.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from kubasolve.errors import RulesError
from kubasolve.games.crossword.layout import BLANK

__all__ = ["LEAVES_FORMAT", "LeaveValues", "LearntLeaves", "RackLeaves", "learnt_leaves_path", "load_learnt_leaves",
           "rack_leave_values", "sub_racks"]

LEAVES_FORMAT = "kubasolve.crossword.leaves/2"
DATA_DIR = Path(__file__).resolve().parent / "data"


class LeaveValues(Protocol):
    """Anything that values a leave (the kept tiles as a rack string, e.g. ``"EST?"``) in points."""

    def value(self, leave: str) -> float: ...


def canonical(tiles: str) -> str:
    """Rack order: letters A-Z, blanks last (as :func:`kubasolve.games.crossword.game.sort_rack`)."""
    return "".join(sorted(tiles, key=lambda ch: (ch == BLANK, ch)))


class LearntLeaves:
    """A learnt leave table: sorted keys (byte strings in rack order) and values (points), with the
    sub-leave fallback for the leaves it does not hold (see the module docstring)."""

    def __init__(self, keys: np.ndarray, values: np.ndarray, info: dict[str, Any] | None = None) -> None:
        keys = np.asarray(keys)
        values = np.asarray(values, dtype=np.float32)
        if keys.ndim != 1 or keys.shape != values.shape or keys.dtype.kind != "S":
            raise RulesError("a leave table needs 1-D byte-string keys and as many values")
        if len(keys) > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            order = np.argsort(keys, kind="stable")
            keys, values = keys[order], values[order]
            if bool(np.any(keys[1:] == keys[:-1])):
                raise RulesError("a leave table holds the same leave twice")
        self.keys = keys
        self.values = values
        self.info = dict(info or {})
        self._memo: dict[str, float] = {"": 0.0}
        packed = pack_keys(keys)
        order = np.argsort(packed, kind="stable")
        self._packed, self._packed_values = packed[order], values[order]

    def __len__(self) -> int:
        return len(self.keys)

    def stored(self, leave: str) -> float | None:
        """The table's own value of ``leave`` (rack order), or None when it is not stored."""
        key = pack_key(leave)
        i = int(self._packed.searchsorted(key))
        if i < len(self._packed) and int(self._packed[i]) == key:
            return float(self._packed_values[i])
        return None

    def value(self, leave: str) -> float:
        """Value of keeping ``leave`` (any order): the stored value, else the sub-leave fallback."""
        hit = self._memo.get(leave)
        if hit is not None:
            return hit
        key = canonical(leave)
        v = self._memo.get(key)
        if v is None:
            v = self.stored(key)
            if v is None:
                v = fallback_value(key, self.value)
            if len(self._memo) > 200_000:
                self._memo = {"": 0.0}
            self._memo[key] = v
        self._memo[leave] = v
        return v

    def to_npz(self) -> bytes:
        """The table as ``.npz`` bytes (compressed): ``keys``, ``values`` (float16 when that holds every value
        exactly, as the learnt tables' do, else float32) and ``info`` (JSON)."""
        buf = io.BytesIO()
        half = self.values.astype(np.float16)
        exact = bool(np.array_equal(half.astype(np.float32), self.values))
        np.savez_compressed(buf, keys=self.keys, values=half if exact else self.values.astype(np.float32),
                            info=np.array(json.dumps({"format": LEAVES_FORMAT, **self.info}, sort_keys=True)))
        return buf.getvalue()

    def save(self, path: str | Path) -> int:
        """Write the table to ``path`` (``.npz``); returns its size in bytes."""
        data = self.to_npz()
        Path(path).write_bytes(data)
        return len(data)

    @classmethod
    def from_npz(cls, source: str | Path | bytes) -> LearntLeaves:
        """A table from an ``.npz`` file (or its bytes) written by :meth:`save`; anything else is a :class:`RulesError`
        naming the file and what is wrong with it in words (not numpy's advice on pickled data)."""
        what = "the table's bytes" if isinstance(source, bytes) else str(source)
        try:
            raw = source if isinstance(source, bytes) else Path(source).read_bytes()
        except OSError as exc:
            raise RulesError(f"{what}: cannot read it ({exc.strerror or exc})") from None
        try:
            with np.load(io.BytesIO(raw), allow_pickle=False) as z:
                missing = [name for name in ("keys", "values", "info") if name not in z]
                if missing:
                    raise RulesError(f"{what} is not a crossword leave table ({LEAVES_FORMAT}): an .npz archive without "
                                     f"{', '.join(repr(m) for m in missing)}")
                keys, values, info = z["keys"], z["values"], json.loads(str(z["info"]))
        except NPZ_ERRORS as exc:
            raise RulesError(f"{what} is not a crossword leave table ({LEAVES_FORMAT}): {npz_problem(exc)}") from None
        if not isinstance(info, dict) or info.get("format") != LEAVES_FORMAT:
            raise RulesError(f"{what} is not a crossword leave table: format {LEAVES_FORMAT!r} expected")
        return cls(keys, values, {k: v for k, v in info.items() if k != "format"})


NPZ_ERRORS = (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile)
"""What ``np.load`` of a file that is not the ``.npz`` expected raises (``BadZipFile``: a zip header and no archive)."""


def npz_problem(exc: BaseException) -> str:
    """One of :data:`NPZ_ERRORS` in words: numpy's advice on loading pickled data, an empty file or a broken zip mean
    the file is not an ``.npz`` archive at all."""
    if isinstance(exc, (zipfile.BadZipFile, EOFError)) or "pickle" in str(exc):
        return "not an .npz archive"
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])  # (numpy's "NAME is not a file in the archive", without the quotes of a KeyError)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


PACK_BITS = 5
"""Bits per tile of a packed leave key: byte - 0x3E, so ``?`` is 1 and ``A``-``Z`` are 3-28 (0: no tile)."""
PACK_MAX_TILES = 12
"""The longest leave a packed key holds (12 x 5 bits fit an int64)."""


def pack_key(leave: str) -> int:
    """A leave's tiles (rack order) as one integer, base 32, first tile most significant (no tile codes 0, so
    keys of different lengths never meet); searching an int64 array is ~30x faster than a byte-string one.
    -1 (no table holds it) for a leave longer than :data:`PACK_MAX_TILES` or with another character."""
    if len(leave) > PACK_MAX_TILES:
        return -1
    key = 0
    for ch in leave:
        code = ord(ch) - 0x3E
        if not 0 < code < 32:
            return -1
        key = (key << PACK_BITS) | code
    return key


def pack_keys(keys: np.ndarray) -> np.ndarray:
    """:func:`pack_key` of every byte-string key of a table (vectorised), int64."""
    width = keys.dtype.itemsize
    if width > PACK_MAX_TILES:
        raise RulesError(f"a leave table's keys hold at most {PACK_MAX_TILES} tiles")
    raw = np.ascontiguousarray(keys).view(np.uint8).reshape(len(keys), width).astype(np.int64)
    if raw.size and (int(raw.max()) > 0x3E + 31 or bool(np.any((raw > 0) & (raw < 0x3F)))):
        raise RulesError("a leave table's keys hold tiles other than A-Z and ?")
    out = np.zeros(len(keys), np.int64)
    for col in range(width):
        c = raw[:, col]
        out = np.where(c > 0, (out << PACK_BITS) | (c - 0x3E), out)
    return out


def fallback_value(leave: str, value: Any) -> float:
    """The additive estimate of ``leave`` (rack order) from its sub-leaves: the mean over its distinct
    tiles ``t`` of ``value(leave - t) + value(t)``; 0 for a single tile (``value`` values the parts)."""
    if len(leave) <= 1:
        return 0.0
    parts = []
    for t in dict.fromkeys(leave):
        i = leave.index(t)
        parts.append(value(leave[:i] + leave[i + 1:]) + value(t))
    return float(sum(parts) / len(parts))


def learnt_leaves_path(tiles_name: str) -> Path:
    """Where the shipped table of a tile set lives (``data/leaves_<name>.npz``)."""
    return DATA_DIR / f"leaves_{tiles_name}.npz"


@cache
def load_learnt_leaves(tiles_name: str = "nl") -> LearntLeaves:
    """The shipped learnt table of a tile set, loaded once; RulesError when there is none."""
    path = learnt_leaves_path(tiles_name)
    if not path.is_file():
        raise RulesError(f"no learnt leave table for the {tiles_name!r} tiles (data/leaves_{tiles_name}.npz); "
                         "make one with kubasolve crossword learn-leaves")
    return LearntLeaves.from_npz(path)


def sub_racks(rack: str) -> list[str]:
    """Every distinct sub-multiset of ``rack`` (rack order), including ``""`` and the rack itself."""
    out = [""]
    for ch, n in Counter(canonical(rack)).items():
        out = [o + ch * k for o in out for k in range(n + 1)]
    return [canonical(o) for o in out]


@dataclass(frozen=True)
class RackLeaves:
    """Every sub-rack of one rack, indexed by a mixed-radix key over its distinct tiles: the key of the
    tiles *played* (``sum(weights[kind] * count)``), and the value of the leave they keep."""

    rack: str
    kinds: str
    """The rack's distinct tiles, in rack order."""
    weights: np.ndarray
    """Mixed-radix weight of each kind (int64)."""
    leaves: tuple[str, ...]
    """``leaves[key]``: the tiles kept when the played tiles have that key."""
    values: np.ndarray
    """``values[key]``: the value of ``leaves[key]`` (float64)."""


_RACK_MEMO: dict[tuple[int, str], tuple[Any, RackLeaves]] = {}
_VALUE_MEMO: dict[int, tuple[Any, dict[str, float]]] = {}
"""Per table (by id, the table kept alive beside): leave -> value, for tables that do not memoise."""


def rack_leave_values(leaves: LeaveValues, rack: str) -> RackLeaves:
    """The :class:`RackLeaves` of ``rack`` under ``leaves`` (memoised per table and rack)."""
    memo_key = (id(leaves), rack)
    hit = _RACK_MEMO.get(memo_key)
    if hit is not None and hit[0] is leaves:
        return hit[1]
    counts = Counter(canonical(rack))
    kinds = "".join(counts)
    mult = [counts[k] for k in kinds]
    weights = np.ones(len(kinds), np.int64)
    for i in range(1, len(kinds)):
        weights[i] = weights[i - 1] * (mult[i - 1] + 1)
    kept = [""]
    for i in reversed(range(len(kinds))):  # the last kind is the most significant digit, the first the least
        kept = [kinds[i] * (mult[i] - played) + rest for rest in kept for played in range(mult[i] + 1)]
    memo = _VALUE_MEMO.get(id(leaves))
    if memo is None or memo[0] is not leaves:
        if len(_VALUE_MEMO) > 16:
            _VALUE_MEMO.clear()
        memo = _VALUE_MEMO[id(leaves)] = (leaves, {})
    known = memo[1]
    if len(known) > 500_000:
        known.clear()
    vals = []
    for s in kept:
        v = known.get(s)
        if v is None:
            v = known[s] = leaves.value(s)
        vals.append(v)
    values = np.array(vals, np.float64)
    out = RackLeaves(rack, kinds, weights, tuple(kept), values)
    if len(_RACK_MEMO) > 50_000:
        _RACK_MEMO.clear()
    _RACK_MEMO[memo_key] = (leaves, out)
    return out
