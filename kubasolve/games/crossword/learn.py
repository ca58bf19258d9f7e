"""Learning a crossword leave table from self-play (``kubasolve crossword learn-leaves``).

The recipe (Macondo/MAGPIE's and wolges' "superleave" method, re-implemented here):

1. **Play**: seeded two-player games in which both sides play the best equity move (score + leave
   value under the current table; an exchange when keeping a better leave is worth more). A game
   stops when the bag is empty (the leave table is not used after that). At every turn with tiles in
   the bag and on the board, record the full rack ``R`` and the equity of the best option ``v(R)``.
2. **Summarise**: every distinct sub-multiset ``S`` of ``R`` with at most ``rack_size - 1`` tiles (127
   of them for 7 distinct tiles) is a leave that rack could keep; add ``v(R)`` to ``S``'s tally. The
   raw value of ``S`` is the mean ``v`` of the racks that held it minus the mean over all racks (the
   empty leave is worth 0): what holding ``S`` is worth at the start of a turn.
3. **Smooth**: a leave seen ``n`` times is shrunk toward its additive estimate from its sub-leaves
   (mean over its distinct tiles ``t`` of ``value(S - t) + value(t)``, the same fallback the table uses
   for leaves it does not hold): ``prior + n / (n + k) * (raw - prior)``, with ``k = k_scale * sigma^2 /
   tau^2`` per leave size (empirical Bayes: ``sigma^2`` the variance of ``v``, ``tau^2`` the spread of the
   well-sampled leaves around their priors beyond the sampling noise; ``k_scale`` below 1 shrinks less:
   the well-sampled leaves sit nearer their priors than the rare ones, so ``tau`` is underestimated).
   ``prior="linear"`` shrinks toward a linear model (per-tile values, repeated tiles, vowel balance, one
   constant per leave size) fitted to the raw values instead, ``"synergy"`` toward the sub-leave estimate
   plus that linear model's excess over its own sub-leave estimate. Values are rounded to float16 (the
   file is half as big). Leaves whose value is within ``prune`` points of the sub-leave estimate are not
   stored (the fallback gives that value).
4. **Iterate**: the next generation plays with the new table and refits.

**Held-out check**: games dealt from another seed stream, played by the same policy; after each
placement or exchange with tiles left in the bag, the tiles kept and the same player's next score.
Each model (no leave, the linear table of ``leaves_<tiles>.json``, a linear model refitted on the
training games, the learnt table) predicts that score (and the sum of the next two) by
``a + b * value(leave)`` with ``a, b`` fitted on the training games; the root-mean-square error on the
held-out games is reported, and again with a term ``c * tiles kept`` fitted beside (``rmse_sized``: how
many tiles a player keeps also says something of the board, e.g. few scoring spots; a linear model's
tile values absorb that term, a table's values of one leave size cannot).
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from kubasolve.errors import RulesError
from kubasolve.games.crossword.ai import LeaveTable, load_leaves, rack_options
from kubasolve.games.crossword.game import CrosswordAction, Referee
from kubasolve.games.crossword.leaves import LearntLeaves, LeaveValues, canonical, fallback_value

__all__ = ["GameSamples", "LeaveStats", "fit_table", "heldout_errors", "leave_stats", "play_learning_game", "table_from"]

BITS = 5
"""Bits per tile in a packed leave key (tile codes 1..31)."""
GAMES_PER_TASK = 25


@dataclass
class GameSamples:
    """What learning games record (see the module docstring)."""

    racks: list[str] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    next_scores: list[int] = field(default_factory=list)
    """The same player's next score after keeping ``kept[i]`` (the bag still holding tiles)."""
    next_values: list[float] = field(default_factory=list)
    """The best equity of that next turn (score + leave value under the table played with)."""
    next2_scores: list[float] = field(default_factory=list)
    """The same player's next two scores, NaN when the bag ran out before the second."""
    games: int = 0
    turns: int = 0
    exchanges: int = 0

    def extend(self, other: GameSamples) -> None:
        self.racks += other.racks
        self.values += other.values
        self.kept += other.kept
        self.next_scores += other.next_scores
        self.next_values += other.next_values
        self.next2_scores += other.next2_scores
        self.games += other.games
        self.turns += other.turns
        self.exchanges += other.exchanges


def play_learning_game(referee: Referee, leaves: LeaveValues, seed: int, out: GameSamples | None = None) -> GameSamples:
    """One two-player learning game by the best-equity policy under ``leaves``, up to the empty bag."""
    from kubasolve.games.crossword.movegen import decode_move

    out = out if out is not None else GameSamples()
    state = referee.new_game(seed, 2)
    pending: dict[int, str] = {}
    second: dict[int, int] = {}
    can_exchange_at = referee.rules.exchange_min_bag
    while not state.over and state.bag:
        p = state.current
        rack = state.rack()
        o = rack_options(referee, state.board, rack, leaves)
        i = o.best_placement()
        best = float(o.equity[i]) if i >= 0 else -math.inf
        ex_key = int(np.argmax(o.sub.values[1:])) + 1 if len(state.bag) >= can_exchange_at and len(o.sub.values) > 1 else 0
        score = 0
        if ex_key and float(o.sub.values[ex_key]) > best:
            best = float(o.sub.values[ex_key])
            kept = o.sub.leaves[ex_key]
            action = CrosswordAction("exchange", letters=_minus(rack, kept))
            out.exchanges += 1
        elif i >= 0:
            move = decode_move(state.board, o.meta[i], o.tiles[i], referee.lexicon, referee.layout, referee.tiles)
            action, kept, score = CrosswordAction.place(move), o.sub.leaves[int(o.played[i])], move.score
        else:
            action, kept = CrosswordAction("pass"), rack
        if not state.board.is_empty() and best > -math.inf:
            out.racks.append(rack)
            out.values.append(best)
        if p in second:
            j = second.pop(p)
            out.next2_scores[j] = out.next_scores[j] + score
        if p in pending:
            out.kept.append(pending.pop(p))
            out.next_scores.append(score)
            out.next_values.append(best if best > -math.inf else 0.0)
            out.next2_scores.append(math.nan)
            second[p] = len(out.next2_scores) - 1
        state = referee.apply(state, action)
        out.turns += 1
        if state.bag and action.type != "pass":
            pending[p] = kept
    out.games += 1
    return out


def _minus(rack: str, kept: str) -> str:
    c = Counter(rack)
    c.subtract(kept)
    return canonical("".join(c.elements()))


def save_samples(path: Any, train: GameSamples, test: GameSamples, setting: dict[str, Any] | None = None) -> None:
    """Write a generation's samples to ``path`` (``.npz``: racks, values, kept leaves, next scores; train and test;
    ``setting``: what the games were played with, e.g. ``{"tiles": "nl", "lexicon": "nl"}``, kept as ``info``
    JSON so that ``--refit`` can refuse to fit them for another tile set: :func:`samples_setting`)."""
    import json

    arrays: dict[str, np.ndarray] = {}
    if setting:
        arrays["info"] = np.array(json.dumps(setting, sort_keys=True))
    for name, s in (("train", train), ("test", test)):
        arrays[f"{name}_racks"] = np.array(s.racks, dtype="U")
        arrays[f"{name}_values"] = np.array(s.values, np.float64)  # exact: --refit gives the run's own table
        arrays[f"{name}_kept"] = np.array(s.kept, dtype="U")
        arrays[f"{name}_next"] = np.array(s.next_scores, np.int16)
        arrays[f"{name}_next_values"] = np.array(s.next_values, np.float32)
        arrays[f"{name}_next2"] = np.array(s.next2_scores, np.float32)
        arrays[f"{name}_counts"] = np.array([s.games, s.turns, s.exchanges], np.int64)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]  # numpy stubs take the keywords for allow_pickle


def load_samples(path: Any) -> tuple[GameSamples, GameSamples]:
    """The (train, test) samples written by :func:`save_samples`."""
    out = []
    with np.load(path, allow_pickle=False) as z:
        for name in ("train", "test"):
            games, turns, exchanges = (int(x) for x in z[f"{name}_counts"])
            n_pairs = len(z[f"{name}_next"])
            extra = [z[f"{name}_{k}"].astype(float).tolist() if f"{name}_{k}" in z else [math.nan] * n_pairs for k in ("next_values", "next2")]
            out.append(GameSamples(z[f"{name}_racks"].tolist(), z[f"{name}_values"].astype(float).tolist(), z[f"{name}_kept"].tolist(),
                                   z[f"{name}_next"].astype(int).tolist(), extra[0], extra[1], games, turns, exchanges))
    return out[0], out[1]


def samples_setting(path: Any) -> dict[str, Any]:
    """What the games of a samples file were played with (``tiles``, ``lexicon``), ``{}`` for a file written before
    samples recorded it."""
    import json

    with np.load(path, allow_pickle=False) as z:
        if "info" not in z:
            return {}
        info = json.loads(str(z["info"]))
    return info if isinstance(info, dict) else {}


def check_table_tiles(table: LearntLeaves, tiles: str, what: str = "the start table") -> None:
    """Refuse (:class:`RulesError`) a learnt table whose ``info`` says it was learnt for another tile set than
    ``tiles``: its values would be looked up for the wrong tiles without a word."""
    learnt_for = table.info.get("tiles")
    if learnt_for is not None and learnt_for != tiles:
        raise RulesError(f"{what} was learnt for the {learnt_for!r} tiles; these games use the {tiles!r} tiles "
                         "(give --tiles to match, or a table of these tiles)")


# ------------------------------------------------------------------------------------------------ summarising
@dataclass
class LeaveStats:
    """Per leave (packed key): how many racks held it, the sum and the sum of squares of their ``v``."""

    order: str
    """Tile codes: ``order[c - 1]`` is the tile of code ``c``."""
    keys: np.ndarray
    n: np.ndarray
    total: np.ndarray
    squares: np.ndarray

    def leave(self, key: int) -> str:
        out = []
        while key:
            out.append(self.order[(key & ((1 << BITS) - 1)) - 1])
            key >>= BITS
        return "".join(out)


def tile_order(tiles: Any) -> str:
    """The tiles of a set in rack order (letters A-Z, blank last): their codes are 1, 2, ..."""
    return canonical("".join(tiles.counts))


@lru_cache(maxsize=4)
def _masks(size: int) -> list[tuple[int, ...]]:
    return [c for k in range(size) for c in combinations(range(size), k)]


def leave_stats(racks: Sequence[str], values: Sequence[float], order: str, chunk: int = 50_000) -> LeaveStats:
    """Tally every distinct sub-leave (at most rack size - 1 tiles) of each full rack with its ``v``."""
    code = {ch: i + 1 for i, ch in enumerate(order)}
    if len(order) >= 1 << BITS:
        raise RulesError(f"leave learning packs at most {(1 << BITS) - 1} kinds of tile, the set has {len(order)}")
    sizes = Counter(len(r) for r in racks)
    size = max(sizes, key=lambda s: (sizes[s], s)) if sizes else 0
    if size * BITS > 63:
        raise RulesError("racks too large to pack")
    keep = [i for i, r in enumerate(racks) if len(r) == size]
    masks = _masks(size)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    vals_all = np.asarray(values, np.float64)
    for start in range(0, len(keep), chunk):
        idx = keep[start : start + chunk]
        codes = np.array([[code[ch] for ch in canonical(racks[i])] for i in idx], np.int64).reshape(len(idx), size)
        vals = vals_all[idx]
        keys = np.zeros((len(idx), len(masks)), np.int64)
        for m, positions in enumerate(masks):
            for rank, pos in enumerate(positions):
                keys[:, m] += codes[:, pos] << (BITS * rank)
        keys.sort(axis=1)
        first = np.ones(keys.shape, bool)
        first[:, 1:] = keys[:, 1:] != keys[:, :-1]
        flat = keys[first]
        v = np.broadcast_to(vals[:, None], keys.shape)[first]
        uniq, inv = np.unique(flat, return_inverse=True)
        parts.append((uniq, np.bincount(inv).astype(np.int64), np.bincount(inv, weights=v), np.bincount(inv, weights=v * v)))
    if not parts:
        z = np.zeros(0)
        return LeaveStats(order, z.astype(np.int64), z.astype(np.int64), z, z)
    allk = np.concatenate([p[0] for p in parts])
    uniq, inv = np.unique(allk, return_inverse=True)
    return LeaveStats(order, uniq, np.bincount(inv, weights=np.concatenate([p[1] for p in parts])).astype(np.int64),
                      np.bincount(inv, weights=np.concatenate([p[2] for p in parts])),
                      np.bincount(inv, weights=np.concatenate([p[3] for p in parts])))


# ------------------------------------------------------------------------------------------------ fitting
PRIORS = ("subleave", "linear", "synergy")
"""What :func:`fit_table` shrinks a leave toward (module docstring, step 3)."""
DEFAULT_PRIOR = "subleave"
DEFAULT_SHRINK = 0.25
"""The default ``prior`` and ``k_scale`` of :func:`fit_table` (chosen on a validation split of the
training racks, docs/crossword.md)."""


def leave_features(stats: LeaveStats) -> np.ndarray:
    """The linear model's features of every leave of ``stats`` (vectorised over the packed keys): the count
    of each tile, the repeated tiles, (vowels - consonants)^2 (blanks neither) and one indicator per leave
    size (1 .. 6). Rows in key order, float64."""
    from kubasolve.games.crossword.ai import VOWELS

    kinds = len(stats.order)
    keys = stats.keys.astype(np.int64)
    counts = np.zeros((len(keys), kinds), np.float64)
    size = np.zeros(len(keys), np.int64)
    rest = keys.copy()
    while bool(np.any(rest)):
        c = rest & ((1 << BITS) - 1)
        has = c > 0
        np.add.at(counts, (np.nonzero(has)[0], c[has] - 1), 1.0)
        size += has
        rest >>= BITS
    vowel = np.array([ch in VOWELS for ch in stats.order])
    consonant = np.array([ch not in VOWELS and ch != "?" for ch in stats.order])
    dup = np.maximum(counts - 1.0, 0.0).sum(axis=1)
    bal = (counts[:, vowel].sum(axis=1) - counts[:, consonant].sum(axis=1)) ** 2
    max_size = max(int(size.max()) if len(size) else 0, 1)
    ind = (size[:, None] == np.arange(1, max_size + 1)[None, :]).astype(np.float64)
    return np.hstack([counts, dup[:, None], bal[:, None], ind])


def _linear_prior(stats: LeaveStats, raw: np.ndarray, sigma2: float) -> np.ndarray:
    """Each leave's value under a linear model (:func:`leave_features`) fitted to the raw leave values by
    weighted ridge least squares (weight ``n / (n + sigma^2 / 4)``: the raw value's precision, capped)."""
    x = leave_features(stats)
    n = stats.n.astype(np.float64)
    w = n / (n + sigma2 / 4.0)
    w[0] = 0.0  # the empty leave is 0 by definition
    xtx = (x * w[:, None]).T @ x + 1e-3 * np.eye(x.shape[1])
    coef = np.linalg.solve(xtx, (x * w[:, None]).T @ raw)
    out = x @ coef
    out[0] = 0.0
    return out


def fit_table(stats: LeaveStats, prune: float = 0.1, min_tau2: float = 0.25, info: dict[str, Any] | None = None,
              prior: str = DEFAULT_PRIOR, k_scale: float = DEFAULT_SHRINK) -> tuple[LearntLeaves, dict[str, Any]]:
    """The smoothed, pruned table of ``stats`` (module docstring, step 3) and a report per leave size."""
    if not len(stats.keys) or stats.keys[0] != 0:
        raise RulesError("no racks to learn from")
    if prior not in PRIORS:
        raise RulesError(f"prior must be one of {', '.join(PRIORS)}, got {prior!r}")
    n0, s0, q0 = int(stats.n[0]), float(stats.total[0]), float(stats.squares[0])
    mu0 = s0 / n0
    sigma2 = max(q0 / n0 - mu0 * mu0, 1e-6)
    leaves = [stats.leave(int(k)) for k in stats.keys]
    raw = stats.total / np.maximum(stats.n, 1) - mu0
    by_size: dict[int, list[int]] = {}
    for j, s in enumerate(leaves):
        if s:
            by_size.setdefault(len(s), []).append(j)
    runtime: dict[str, float] = {"": 0.0}
    lin: dict[str, float] = dict(zip(leaves, _linear_prior(stats, raw, sigma2).tolist(), strict=True)) if prior != "subleave" else {}

    def value(s: str) -> float:
        v = runtime.get(s)
        if v is None:  # never seen (cannot happen for a sub-leave of a seen leave): the fallback
            v = runtime[s] = fallback_value(s, value)
        return v

    def prior_of(s: str) -> float:
        if prior == "linear":
            return lin[s]
        base = fallback_value(s, value)
        if prior == "synergy" and len(s) > 1:  # the linear model's excess over its own additive estimate
            base += lin[s] - fallback_value(s, lin.__getitem__)
        return base

    kept_keys: list[str] = []
    kept_values: list[float] = []
    report: dict[str, Any] = {"racks": n0, "mean_rack_equity": round(mu0, 3), "sigma": round(math.sqrt(sigma2), 3),
                              "prior": prior, "k_scale": k_scale, "sizes": {}}
    for size in sorted(by_size):
        js = by_size[size]
        priors = np.array([prior_of(leaves[j]) for j in js])
        n = stats.n[js].astype(np.float64)
        dev = raw[js] - priors
        well = n >= 50
        # the spread of the true values around their priors: the well-sampled leaves' mean square deviation
        # beyond their sampling noise
        tau2 = max(float(np.mean(dev[well] ** 2) - np.mean(sigma2 / n[well])) if well.sum() >= 2 else min_tau2, min_tau2)
        k = k_scale * sigma2 / tau2
        # stored as float16 (about 0.01-0.03 points at these magnitudes: the file is half as big), so the
        # fallbacks of larger leaves are computed from the values the table will give
        smooth = (priors + n / (n + k) * dev).astype(np.float16).astype(np.float64)
        stored = 0
        # store what the table's fallback (the sub-leave estimate) does not give within ``prune``
        for j, p, val in zip(js, priors.tolist(), smooth.tolist(), strict=True):
            s = leaves[j]
            fallback = p if prior == "subleave" else fallback_value(s, value)
            if size == 1 or abs(val - fallback) >= prune:
                runtime[s] = val
                kept_keys.append(s)
                kept_values.append(val)
                stored += 1
            else:
                runtime[s] = fallback
        report["sizes"][str(size)] = {"seen": len(js), "stored": stored, "k": round(k, 2), "tau": round(math.sqrt(tau2), 3),
                                      "median_count": float(np.median(n))}
    keys = np.array([s.encode("ascii") for s in kept_keys], dtype=f"S{max((len(s) for s in kept_keys), default=1)}")
    table = LearntLeaves(keys, np.array(kept_values, np.float32), {**(info or {}), "fit": report})
    return table, report


# ------------------------------------------------------------------------------------------------ held-out check
def _linear_refit(kept: Sequence[str], scores: Sequence[float], order: str) -> LeaveTable:
    """The linear leave model of ``leaves_<tiles>.json`` (per-tile values, repeated tiles, vowel balance)
    refitted on these pairs by the same ridge least squares."""
    from kubasolve.games.crossword.data.make_leaves import fit

    return fit(list(zip(kept, scores, strict=True)), list(order))


HELDOUT_TARGETS = ("next_score", "next_two_scores")


def heldout_errors(train: GameSamples, test: GameSamples, models: dict[str, LeaveValues | None], order: str) -> dict[str, Any]:
    """For each target (the same player's next score; their next two scores) and each model: ``a, b``
    fitted on ``train`` (target ~ a + b * value(kept)) and the root-mean-square error on ``test``
    (``rmse``); ``rmse_sized`` the same with a term ``c * len(kept)`` fitted beside (how many tiles a player
    keeps says something of the board, e.g. few scoring spots, not only of the tiles: the term takes that
    out of the comparison, and the linear models, whose tile values can absorb it, gain nothing from it);
    ``None`` is the model without leaves (the mean); ``linear-refit`` (the linear model refitted on the
    training pairs of that target) is added."""
    out: dict[str, Any] = {"train_pairs": len(train.kept), "test_pairs": len(test.kept)}
    memos: dict[str, dict[str, float]] = {}

    def values(name: str, model: LeaveValues, kept: Sequence[str]) -> np.ndarray:
        memo = memos.setdefault(name, {})
        res = []
        for s in kept:
            v = memo.get(s)
            if v is None:
                v = memo[s] = model.value(s)
            res.append(v)
        return np.array(res)

    for target, y_tr, y_te in (("next_score", train.next_scores, test.next_scores), ("next_two_scores", train.next2_scores, test.next2_scores)):
        y_train, y_test = np.asarray(y_tr, np.float64), np.asarray(y_te, np.float64)
        ok_tr, ok_te = np.isfinite(y_train), np.isfinite(y_test)
        kept_tr = [k for k, ok in zip(train.kept, ok_tr, strict=True) if ok]
        kept_te = [k for k, ok in zip(test.kept, ok_te, strict=True) if ok]
        y_train, y_test = y_train[ok_tr], y_test[ok_te]
        rows: dict[str, Any] = {"train_pairs": len(y_train), "test_pairs": len(y_test)}
        candidates = dict(models)
        if len(kept_tr) > len(order) + 3:
            candidates["linear-refit"] = _linear_refit(kept_tr, y_train.tolist(), order)
        size_tr = np.array([len(k) for k in kept_tr], np.float64)
        size_te = np.array([len(k) for k in kept_te], np.float64)
        for name, model in candidates.items():
            if model is None or not len(y_train):
                x_train, x_test = np.zeros(len(y_train)), np.zeros(len(y_test))
            else:
                x_train = values(name if name != "linear-refit" else f"{name}:{target}", model, kept_tr)
                x_test = values(name if name != "linear-refit" else f"{name}:{target}", model, kept_te)
            row: dict[str, Any] = {}
            for sized in (False, True):  # a + b * value (+ c * tiles kept)
                cols_tr = [np.ones(len(y_train)), x_train] + ([size_tr] if sized else [])
                cols_te = [np.ones(len(y_test)), x_test] + ([size_te] if sized else [])
                coef = np.linalg.lstsq(np.stack(cols_tr, 1), y_train, rcond=None)[0] if len(y_train) else np.zeros(len(cols_tr))
                pred = np.stack(cols_te, 1) @ coef
                rmse = round(float(np.sqrt(np.mean((y_test - pred) ** 2))), 4) if len(y_test) else float("nan")
                if sized:
                    row.update(c=round(float(coef[2]), 4), rmse_sized=rmse)
                else:
                    row.update(a=round(float(coef[0]), 3), b=round(float(coef[1]), 4), rmse=rmse)
            rows[name] = row
        out[target] = rows
    return out


# ------------------------------------------------------------------------------------------------ the run
def table_digest(table: LearntLeaves) -> str:
    """A short hash of a table's keys and values (the same table gives the same digest)."""
    return hashlib.sha256(table.keys.tobytes() + table.values.tobytes()).hexdigest()[:16]


def learning_seed(master: int, generation: int, k: int, held_out: bool = False) -> int:
    """Deal seed of game ``k`` of a generation (held-out games come from their own stream)."""
    return random.Random(f"crossword-leaves:{master}:{generation}:{'h' if held_out else 't'}:{k}").randrange(2**62)


Setting = tuple[dict[str, Any] | None, str | None]


@lru_cache(maxsize=4)
def table_from(blob: bytes | str) -> LeaveValues:
    """The leave model a task names: ``.npz`` bytes (a learnt table), ``none`` (no leave values) or a tiles name
    (that tile set's linear table); cached, as every task of a worker names the same one."""
    if isinstance(blob, bytes):
        return LearntLeaves.from_npz(blob)
    if blob == "none":
        return LeaveTable({})
    return load_leaves(blob)


@functools.cache
def _lexicon_named(name: str) -> Any:
    """One lexicon object per name or path in a process (the referee cache is keyed by the object)."""
    from kubasolve.lexicon import load_lexicon

    return load_lexicon(name)


def referee_for(setting: Setting) -> Any:
    """The cached referee of (rules dict, lexicon name or path)."""
    from kubasolve.games.crossword.game import default_referee
    from kubasolve.games.crossword.rules import CrosswordRules

    rules, lexicon = setting
    return default_referee(CrosswordRules.from_dict(rules) if rules else None, _lexicon_named(lexicon) if lexicon else None)


def _play_task(task: tuple[Setting, bytes | str, list[int]]) -> GameSamples:
    """Worker: play the learning games of ``task`` (setting, table (npz bytes, or a linear table's tiles
    name, or ``none``), seeds)."""
    setting, table, seeds = task
    referee = referee_for(setting)
    leaves = table_from(table)
    out = GameSamples()
    for s in seeds:
        play_learning_game(referee, leaves, s, out)
    return out
