"""Exact Rummikub move solver: the best legal play from a table and a rack, table rearrangement included.

Two exact engines, both proven optimal:

* the default numba dynamic programme (``kubasolve.kernels.rummikub_dp``, after van Rijn, Takes and Vis
  2015), which goes number by number with the open runs of each colour as state; and
* an integer programme over the catalogue of legal sets (``sets.candidate_sets``), solved by HiGHS
  (``highspy``) with zero gaps: ``x_s`` copies of set ``s``, ``y_t`` rack tiles of code ``t`` played,
  ``sum_s members[s,t] x_s = table_t + y_t`` (every table tile stays on the table), ``0 <= y_t <= rack_t``.
  It serves the fewest-changed-sets tie-break (each original table set is also a candidate, worth +1),
  variants the DP does not cover, and cross-checks in the tests.

The objective is lexicographic, folded into one integer objective: first the chosen :class:`Objective`,
then keep as many jokers on the rack as that allows, then (on request) leave as many original table
sets untouched as possible. First meld: table tiles are off limits and the new sets must be worth
``rules.min_first_meld``. Strict joker retrieval (``rules.joker_retrieval``, the default) is solved as a few
cases of the table jokers (:func:`_variants`): each kept as the tile it stands for, or retrieved by that tile
from the rack. See ``docs/rummikub.md`` for the design notes and measurements.
"""

from __future__ import annotations

import enum
import itertools
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from kubasolve.budget import Budget, StopFlag, check_work_budget
from kubasolve.errors import PositionError
from kubasolve.games.rummikub.rules import RummikubRules
from kubasolve.games.rummikub.sets import (
    arrange_set,
    candidate_sets,
    canonical_set,
    describe_set,
    is_valid_set,
    joker_readings,
    set_problem,
    set_value,
)
from kubasolve.games.rummikub.tiles import (
    Tile,
    TileSet,
    check_tile_supply,
    format_table,
    format_tiles,
    tile_counts,
)


class Objective(enum.Enum):
    """What the solver maximises over the rack tiles it plays."""

    TILE_COUNT = "tiles"
    """Most tiles placed (a joker counts as one tile)."""
    TOTAL_VALUE = "value"
    """Most face value placed (a joker counts 0, as in rummikub-solver)."""
    KEEP_JOKERS = "keep-jokers"
    """Most numbered tiles placed; jokers are played only when that places more numbered tiles."""
    JOKER_PENALTY = "penalty"
    """Most end-of-game penalty removed from the rack: face values, a joker counting ``rules.joker_penalty``."""

    @classmethod
    def parse(cls, name: str | Objective) -> Objective:
        """Objective from its name (``tiles``, ``value``, ``keep-jokers``, ``penalty``)."""
        if isinstance(name, Objective):
            return name
        key = str(name).strip().lower().replace("_", "-")
        for o in cls:
            if key in (o.value, o.name.lower().replace("_", "-")):
                return o
        raise PositionError(f"unknown objective {name!r}; choose one of {', '.join(o.value for o in cls)}")


def objective_weights(objective: Objective, rules: RummikubRules) -> np.ndarray:
    """Score of playing one rack tile of each code under ``objective`` (length ``rules.kinds``)."""
    faces = np.array([t % rules.numbers + 1 for t in range(rules.joker)] + [0], dtype=np.int64)
    if objective is Objective.TILE_COUNT:
        w = np.ones(rules.kinds, dtype=np.int64)
    elif objective is Objective.TOTAL_VALUE:
        w = faces
    elif objective is Objective.KEEP_JOKERS:
        w = np.ones(rules.kinds, dtype=np.int64)
        w[rules.joker] = 0
    else:
        w = faces.copy()
        w[rules.joker] = rules.joker_penalty
    return w


@dataclass(frozen=True)
class Solution:
    """The solver's answer: the new table layout and the rack tiles played (empty: no move)."""

    table: tuple[TileSet, ...]
    """Every set on the table after the move, in display order."""
    played: tuple[Tile, ...]
    """Rack tiles moved to the table (sorted codes); empty when there is no legal play."""
    value: int
    """Optimal value of the objective (0 when there is no move)."""
    objective: Objective
    first_meld: bool
    kept_sets: int
    """How many of the original table sets are still on the table unchanged."""
    changed_sets: int
    """Original table sets that were broken up or extended."""
    jokers_played: int
    rules: RummikubRules = field(repr=False, compare=False)
    proven_optimal: bool = True
    """False when the work budget of :func:`solve` (``budget``) ran out first: the play is legal and the best found,
    but a better one may exist (no play found: the player may still have one)."""
    nodes: int = field(default=0, compare=False)
    """Search nodes the solve spent: DP states, and the integer programme's branch-and-bound nodes."""

    @property
    def found(self) -> bool:
        """True if a legal play exists (at least one tile placed with a positive score)."""
        return bool(self.played)

    def text(self) -> str:
        """One-line human summary."""
        if not self.found:
            return "no move (draw a tile)"
        return f"play {format_tiles(self.played, self.rules)} -> {format_table(self.table, self.rules)}"

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form, tiles as text."""
        from kubasolve.games.rummikub.tiles import tile_name

        return {
            "found": self.found,
            "played": [tile_name(t, self.rules) for t in self.played],
            "table": [[tile_name(t, self.rules) for t in s] for s in self.table],
            "value": self.value,
            "objective": self.objective.value,
            "first_meld": self.first_meld,
            "kept_sets": self.kept_sets,
            "changed_sets": self.changed_sets,
            "jokers_played": self.jokers_played,
            "proven_optimal": self.proven_optimal,
            "nodes": self.nodes,
        }


def _tile_codes(tiles: object, what: str, rules: RummikubRules) -> TileSet:
    """``tiles`` as a tuple of int tile codes; PositionError naming the value for text, floats, booleans, None."""
    if not isinstance(tiles, (list, tuple, np.ndarray)):
        raise PositionError(f"{what} must be a list of tile codes (parse_tiles converts text), got {tiles!r}")
    for t in tiles:
        if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
            raise PositionError(f"bad tile code {t!r} in {what} (expected an integer 0..{rules.kinds - 1})")
    return tuple(int(t) for t in tiles)


def validate_position(table: Sequence[Sequence[Tile]], rack: Sequence[Tile], rules: RummikubRules) -> None:
    """Raise PositionError if a table set is illegal or the tiles exceed the box."""
    for s in table:
        problem = set_problem(tuple(s), rules)
        if problem:
            raise PositionError(f"table set {describe_set(tuple(s), rules)} is not legal: {problem}")
    tiles = [t for s in table for t in s] + list(rack)
    for t in tiles:
        if not isinstance(t, (int, np.integer)) or not 0 <= t < rules.kinds:
            raise PositionError(f"bad tile code {t!r} (expected 0..{rules.kinds - 1})")
    check_tile_supply(tiles, rules)


_HIGHS = None


def _highs():
    """One reusable HiGHS instance with logging off (its start-up banner is kept off stdout)."""
    global _HIGHS
    if _HIGHS is None:
        import highspy

        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as devnull:
                os.dup2(devnull.fileno(), 1)
                h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        h.setOptionValue("output_flag", False)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 0.5)  # all objective coefficients are integers: proves optimality
        h.setOptionValue("threads", 1)
        # measured faster on these small models (median 20 -> 8 ms); exactness does not depend on them
        h.setOptionValue("presolve", "off")
        h.setOptionValue("mip_heuristic_effort", 0.0)
        _HIGHS = h
    return _HIGHS


def _solve_ilp(
    members: np.ndarray,
    upper: np.ndarray,
    avail_fixed: np.ndarray,
    rack: np.ndarray,
    weights: np.ndarray,
    set_costs: np.ndarray,
    set_values: np.ndarray | None,
    min_value: int,
    fixed_tile_score: int | None = None,
    budget: _Budget | None = None,
) -> tuple[np.ndarray, np.ndarray, bool] | None:
    """Maximise ``set_costs . x + weights . y`` s.t. ``members.T x = avail_fixed + y``, ``0<=x<=upper``, ``0<=y<=rack``
    (and ``set_values . x >= min_value`` when given, ``weights . y == fixed_tile_score`` when given).

    Rows are the tile codes that appear in ``members`` or ``rack``; returns (x, y, proven optimal) or None if
    infeasible (or when the budget ran out before a feasible point).
    """
    import highspy

    n_sets, kinds = members.shape
    used_kinds = np.flatnonzero((members.sum(axis=0) > 0) | (rack > 0) | (avail_fixed > 0))
    row_of = -np.ones(kinds, dtype=np.int64)
    row_of[used_kinds] = np.arange(len(used_kinds))
    n_rows = len(used_kinds) + (1 if set_values is not None else 0)
    score_row = n_rows if fixed_tile_score is not None else -1
    n_rows += 1 if fixed_tile_score is not None else 0
    rack_cols = np.flatnonzero(rack > 0)
    n_cols = n_sets + len(rack_cols)
    # column-wise sparse matrix: per set column its tiles' rows in code order, then its value row (first meld); built
    # with numpy (a Python loop per set took ~0.1-0.5 s on large variants, before HiGHS's time limit applies)
    col, kind = np.nonzero(members)  # row-major: by set, then by tile code
    rows = row_of[kind]
    vals = members[col, kind].astype(float)
    if set_values is not None:
        col = np.concatenate([col, np.arange(n_sets)])
        rows = np.concatenate([rows, np.full(n_sets, len(used_kinds))])
        vals = np.concatenate([vals, set_values.astype(float)])
        order = np.argsort(col, kind="stable")  # each set's value row after its tiles
        col, rows, vals = col[order], rows[order], vals[order]
    starts = np.concatenate([[0], np.cumsum(np.bincount(col, minlength=n_sets))]).tolist()
    index: list[int] = rows.tolist()
    value: list[float] = vals.tolist()
    for t in rack_cols:
        index.append(int(row_of[t]))
        value.append(-1.0)
        if fixed_tile_score is not None and weights[t] != 0:
            index.append(score_row)
            value.append(float(weights[t]))
        starts.append(len(index))
    lp = highspy.HighsLp()
    lp.num_col_ = n_cols
    lp.num_row_ = n_rows
    lp.col_cost_ = np.concatenate([set_costs.astype(float), weights[rack_cols].astype(float)])
    lp.col_lower_ = np.zeros(n_cols)
    lp.col_upper_ = np.concatenate([upper.astype(float), rack[rack_cols].astype(float)])
    rhs = avail_fixed[used_kinds].astype(float)
    lo, hi = rhs, rhs.copy()
    if set_values is not None:
        lo = np.append(lo, float(min_value))
        hi = np.append(hi, highspy.kHighsInf)
    if fixed_tile_score is not None:
        lo = np.append(lo, float(fixed_tile_score))
        hi = np.append(hi, float(fixed_tile_score))
    lp.row_lower_ = lo
    lp.row_upper_ = hi
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value, dtype=float)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n_cols
    h = _highs()
    h.clearModel()
    h.passModel(lp)
    limited = budget is not None and (budget.nodes is not None or budget.deadline is not None)
    if limited:
        assert budget is not None
        if budget.nodes is not None:
            h.setOptionValue("mip_max_nodes", max(1, budget.nodes))
        if budget.deadline is not None:
            h.setOptionValue("time_limit", max(1e-3, budget.deadline - __import__("time").perf_counter()))
    try:
        h.run()
        if budget is not None:
            budget.used += int(h.getInfo().mip_node_count)
    finally:
        if limited:
            h.setOptionValue("mip_max_nodes", highspy.kHighsIInf)
            h.setOptionValue("time_limit", highspy.kHighsInf)
    status = h.getModelStatus()
    proven = True
    if status != highspy.HighsModelStatus.kOptimal:
        if status == highspy.HighsModelStatus.kInfeasible:
            return None
        stopped = status in (
            highspy.HighsModelStatus.kTimeLimit,
            highspy.HighsModelStatus.kSolutionLimit,
            highspy.HighsModelStatus.kIterationLimit,
            highspy.HighsModelStatus.kInterrupt,
        )
        if not (limited and stopped):
            raise RuntimeError(f"HiGHS did not prove optimality: {h.modelStatusToString(status)}")
        assert budget is not None
        budget.exhausted = True
        if h.getInfo().primal_solution_status != 2:  # no feasible point yet
            return None
        proven = False
    sol = np.rint(np.array(h.getSolution().col_value)).astype(np.int64)
    y = np.zeros(kinds, dtype=np.int64)
    y[rack_cols] = sol[n_sets:]
    return sol[:n_sets], y, proven


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: RummikubRules | None = None,
    objective: Objective | str = Objective.TILE_COUNT,
    *,
    first_meld: bool = False,
    fewest_changes: bool = False,
    method: str = "auto",
    budget: Budget | None = None,
    minimise_changes: bool | None = None,
    max_nodes: int | None = None,
    time_limit_ms: float | None = None,
) -> Solution:
    """Best legal play of ``rack`` onto ``table`` (a list of legal sets), proven optimal.

    ``first_meld``: the player has not melded yet, so only rack tiles may be used, the table stays as it
    is and the new sets must be worth at least ``rules.min_first_meld``. ``fewest_changes``: among the
    optimal plays, prefer the one leaving most original table sets untouched (integer programme only; the same
    name as the CLI's ``--fewest-changes`` and the engine's ``fewest_changes``; ``minimise_changes`` is its older
    name, kept for one release).
    ``method``: ``"dp"`` (numba dynamic programme), ``"ilp"`` (HiGHS integer programme) or ``"auto"``
    (the DP unless the tie-break or the variant needs the integer programme). Both are exact.
    ``rules.joker_retrieval == "strict"``: a table joker keeps the tile it stands for, or that tile,
    played from the rack, takes its place (then the joker is played again).

    ``budget`` (a :class:`~kubasolve.budget.Budget`, optional): ``max_nodes`` caps the DP states explored in all (the
    integer programme: its branch-and-bound nodes), ``movetime_ms`` the wall time from after the solver's one-time
    set-up (:func:`warm_up`; the DP converts the time left into a node limit per search, so it may overrun
    slightly), and its ``stop`` flag ends the search before the next DP search or round. When it runs out the answer
    is the best legal play found so far with ``proven_optimal=False``; ``nodes`` says what was spent.
    ``max_nodes``/``time_limit_ms``: the older form of the budget, kept for one release.
    """
    check_work_budget(max_nodes, time_limit_ms, "time_limit_ms")
    if budget is not None and (max_nodes is not None or time_limit_ms is not None):
        raise PositionError("give budget or its older form max_nodes/time_limit_ms, not both")
    if minimise_changes is not None:
        fewest_changes = fewest_changes or minimise_changes
    if budget is None:
        budget = Budget(time_limit_ms, max_nodes)
    elif budget.movetime_ms is not None:
        warm_up(rules or RummikubRules())
    meter = _Budget(budget.max_nodes, None if budget.movetime_ms is None else time.perf_counter() + budget.movetime_ms / 1e3,
                    stop=budget.stop)
    sol = _solve(table, rack, rules, objective, first_meld, fewest_changes, method, meter)
    return replace(sol, nodes=meter.used)


def _solve(table: Sequence[Sequence[Tile]], rack: Sequence[Tile], rules: RummikubRules | None, objective: Objective | str,
           first_meld: bool, minimise_changes: bool, method: str, budget: _Budget) -> Solution:
    """:func:`solve` within the meter ``budget``."""
    if rules is not None and not isinstance(rules, RummikubRules):
        raise PositionError(f"rules must be RummikubRules, got {rules!r}")
    rules = rules or RummikubRules()
    objective = Objective.parse(objective)
    if not isinstance(table, (list, tuple)):
        raise PositionError(f"table must be a list of sets of tile codes (parse_table converts text), got {table!r}")
    sets: list[TileSet] = [_tile_codes(s, "a table set", rules) for s in table]
    tiles = list(_tile_codes(rack, "the rack", rules))
    validate_position(sets, tiles, rules)
    rack_counts = tile_counts(tiles, rules)
    table_counts = tile_counts([t for s in sets for t in s], rules)
    weights = objective_weights(objective, rules)

    if method not in ("auto", "dp", "ilp"):
        raise PositionError(f"unknown method {method!r}; choose auto, dp or ilp")
    if first_meld and rules.min_first_meld > 0:
        # the most a first meld of this rack can show: every numbered tile's number, every joker the highest number;
        # below the minimum no play exists (exact, at once: the searches would try every layout, e.g. ~0.2-1 s per
        # solve of a 50-tile rack against a first meld of 10,000, which simulations of such a variant repeat)
        most = sum(rules.numbers if t == rules.joker else t % rules.numbers + 1 for t in tiles)
        if most < rules.min_first_meld:
            return _no_move(sets, objective, first_meld, rules)
    dp_ok = dp_supports(rules) and not (minimise_changes and sets and not first_meld)
    if method == "dp" and not dp_ok:
        raise PositionError(
            "the DP does not cover this request (tie-break on changed sets, or a variant with"
            " >= min_set_size jokers); use method='ilp'"
        )
    if method != "ilp" and dp_ok:
        sol = _solve_dp(sets, rack_counts, table_counts, weights, objective, first_meld, rules, budget)
        if sol is not None:
            return sol
        if method == "dp":
            raise PositionError(
                "the DP state does not fit for this position (table jokers standing for tiles whose copies are"
                " all in play); use method='ilp'"
            )
    fixed_score = None
    if minimise_changes and sets and not first_meld and dp_supports(rules):
        # the DP finds the optimal value fast; the integer programme then only chooses among optimal plays
        best = _solve_dp(sets, rack_counts, table_counts, weights, objective, first_meld, rules, budget)
        if best is not None and (not best.found or not best.proven_optimal):
            return best
        fixed_score = None if best is None else (best.value, best.jokers_played)
    variants = _variants(sets, rack_counts, rules, first_meld)
    found: list[tuple[tuple[int, int, int], Solution]] = []
    proven = True
    for var in variants:
        if budget.deadline is not None and time.perf_counter() >= budget.deadline:
            budget.exhausted = True  # each variant is an integer programme of its own (63 variants, 20 ms each, seen)
            proven = False
            break
        got = _solve_ilp_variant(
            sets, var, rack_counts, table_counts, weights, objective, first_meld, minimise_changes, rules, fixed_score,
            budget,
        )
        if got is not None:
            found.append(got)
            proven = proven and got[1].proven_optimal
    if not found:  # no variant places a tile with a positive score
        return _no_move(sets, objective, first_meld, rules, proven and not budget.spent())
    best = max(found, key=lambda f: f[0])[1]
    return best if proven else replace(best, proven_optimal=False)


@dataclass(frozen=True)
class _Variant:
    """One way to treat the table jokers under strict joker retrieval."""

    virtual: tuple[Tile, ...]
    """Tiles the kept table jokers stand for (laid as if real, turned back into jokers afterwards)."""
    retrieved: tuple[Tile, ...]
    """Rack tiles that take the place of retrieved table jokers (those jokers must be played again)."""
    substituted: tuple[TileSet, ...] = ()
    """The table with every joker read as the tile it stands for (for the fewest-changes tie-break)."""


_PLAIN = _Variant((), ())


def _variants(
    table: Sequence[TileSet], rack_counts: np.ndarray, rules: RummikubRules, first_meld: bool
) -> list[_Variant]:
    """The cases the solver tries: ``[_PLAIN]`` (the table as it is; jokers move freely) unless strict
    retrieval applies to table jokers; then every reading of the table jokers times every subset of them
    whose tiles the rack can supply (the others keep the tile they stand for)."""
    joker = rules.joker
    if first_meld or rules.joker_retrieval != "strict" or not any(joker in s for s in table):
        return [_PLAIN]
    per_set = [joker_readings(s, rules) if joker in s else [()] for s in table]
    out: dict[tuple[tuple[Tile, ...], tuple[Tile, ...]], _Variant] = {}
    for reading in itertools.product(*per_set):
        substituted = []
        for s, means in zip(table, reading, strict=True):
            reals = [t for t in s if t != joker]
            substituted.append(tuple(sorted(reals + list(means))))
        means_all = sorted(itertools.chain.from_iterable(reading))
        for mask in range(1 << len(means_all)):
            ret = tuple(t for i, t in enumerate(means_all) if mask >> i & 1)
            keep = tuple(t for i, t in enumerate(means_all) if not mask >> i & 1)
            if any(c > rack_counts[t] for t, c in Counter(ret).items()):
                continue
            out.setdefault((keep, ret), _Variant(keep, ret, tuple(substituted)))
    return sorted(out.values(), key=lambda v: (len(v.retrieved), v.virtual, v.retrieved))


def _covered_tiles(var: _Variant, variants: Sequence[_Variant]) -> list[Tile]:
    """Rack tiles a search of ``var`` may leave out: a case that keeps the same jokers and retrieves
    ``R1`` instead of ``var``'s ``R2`` (as many tiles), listed before ``var``, already holds every layout of
    ``var`` that also plays ``R1 - R2`` from the rack (the same tiles, jokers and score, with ``R1`` as the
    replacements). When ``R1 - R2`` is a single tile, ``var`` need only look at layouts without it."""
    out: list[Tile] = []
    if not var.retrieved:
        return out
    mine = Counter(var.retrieved)
    for other in variants:
        if other == var:
            break
        if len(other.retrieved) != len(var.retrieved) or Counter(other.virtual) != Counter(var.virtual):
            continue
        diff = Counter(other.retrieved) - mine
        if sum(diff.values()) == 1:
            out.extend(diff)
    return out


def _variant_counts(
    var: _Variant, rack_counts: np.ndarray, table_counts: np.ndarray, rules: RummikubRules
) -> tuple[np.ndarray, np.ndarray]:
    """(fixed, rack) tile counts of a variant: the table with kept jokers read as tiles and retrieved
    jokers' replacements laid, and the rack less those replacements."""
    if var == _PLAIN:
        return table_counts, rack_counts
    fixed = table_counts.copy()
    fixed[rules.joker] = len(var.retrieved)
    rack2 = rack_counts.copy()
    for t in var.virtual:
        fixed[t] += 1
    for t in var.retrieved:
        fixed[t] += 1
        rack2[t] -= 1
    return fixed, rack2


def _restore_jokers(
    sets: list[TileSet], virtual: Sequence[Tile], rules: RummikubRules, prefer: Sequence[TileSet]
) -> list[TileSet]:
    """Put the kept table jokers back in place of the tiles they stand for (in a set matching one of
    ``prefer``, the substituted original sets, when there is one), in display order."""
    sets = [tuple(s) for s in sets]
    wanted = Counter(canonical_set(s) for s in prefer)
    for t in virtual:
        holders = [i for i, s in enumerate(sets) if t in s]
        i = max(holders, key=lambda h: wanted[canonical_set(sets[h])] > 0)  # first holder that matches, if any
        if wanted[canonical_set(sets[i])] > 0:
            wanted[canonical_set(sets[i])] -= 1
        s = list(sets[i])
        s[s.index(t)] = rules.joker
        sets[i] = tuple(s)
    return [arrange_set(s, rules) for s in sets]


def _solve_ilp_variant(
    table: list[TileSet],
    var: _Variant,
    rack_counts_all: np.ndarray,
    table_counts_all: np.ndarray,
    weights: np.ndarray,
    objective: Objective,
    first_meld: bool,
    minimise_changes: bool,
    rules: RummikubRules,
    fixed_score: tuple[int, int] | None,
    budget: _Budget | None = None,
) -> tuple[tuple[int, int, int], Solution] | None:
    """The integer programme for one variant: ((value, -jokers played, sets kept), solution), or None when
    it places nothing of positive value."""
    joker = rules.joker
    table_counts, rack_counts = _variant_counts(var, rack_counts_all, table_counts_all, rules)
    bonus = int(sum(int(weights[t]) for t in var.retrieved))
    cat = candidate_sets(rules)
    avail = rack_counts if first_meld else rack_counts + table_counts
    # a candidate is usable when all its tiles are available
    usable = np.all(cat.members <= avail[np.newaxis, :], axis=1)
    idx = np.flatnonzero(usable)
    members = cat.members[idx].astype(np.int64)
    values = cat.values[idx]
    originals: list[TileSet] = []
    if minimise_changes and not first_meld:
        originals = list(var.substituted) if var.substituted else table
    if originals:
        orig_members = np.zeros((len(originals), rules.kinds), dtype=np.int64)
        for i, s in enumerate(originals):
            for t in s:
                orig_members[i, t] += 1
        members = np.vstack([members, orig_members])
        values = np.concatenate([values, np.array([set_value(s, rules) for s in originals], dtype=np.int64)])
    n_cand = len(idx)
    with np.errstate(divide="ignore"):
        upper = np.min(np.where(members > 0, avail[np.newaxis, :] // np.maximum(members, 1), rules.copies), axis=1)
    upper[n_cand:] = np.minimum(upper[n_cand:], 1)

    # lexicographic objective as one integer objective: primary, then jokers kept, then original sets kept
    n_orig = len(originals)
    jokers_in_rack = int(rack_counts[joker])
    scale_keep = n_orig + 1
    scale_primary = scale_keep * (jokers_in_rack + 1)
    tile_weights = weights * scale_primary
    tile_weights[joker] -= scale_keep
    # the "kept set" bonus (+1) sits on the columns of the original table sets
    fixed = np.zeros(rules.kinds, dtype=np.int64) if first_meld else table_counts
    set_costs = np.zeros(len(members), dtype=np.int64)
    set_costs[n_cand:] = 1
    fixed_tiles = None
    if fixed_score is not None:
        if fixed_score[0] < bonus:
            return None
        fixed_tiles = (fixed_score[0] - bonus) * scale_primary - fixed_score[1] * scale_keep
    result = _solve_ilp(
        members,
        upper,
        fixed,
        rack_counts,
        tile_weights,
        set_costs,
        values if first_meld else None,
        rules.min_first_meld,
        fixed_tiles,
        budget,
    )
    if result is None:
        return None
    x, y, proven = result
    primary = int(weights @ y) + bonus
    if primary <= 0:
        return None
    chosen: list[TileSet] = []
    for col in np.flatnonzero(x).tolist():
        chosen.extend([tuple(np.repeat(np.arange(rules.kinds), members[col]).tolist())] * int(x[col]))
    new_sets = [arrange_set(s, rules) for s in chosen]
    if var.virtual:
        new_sets = _restore_jokers(new_sets, var.virtual, rules, var.substituted)
    played = np.repeat(np.arange(rules.kinds), y).tolist() + list(var.retrieved)
    sol = _solution(table, new_sets, played, primary, objective, first_meld, int(y[joker]), rules, proven)
    return (primary, -sol.jokers_played, sol.kept_sets), sol


def dp_supports(rules: RummikubRules) -> bool:
    """True if the numba DP is exact and fits for this variant (fewer jokers than a set's minimum size,
    so no set is all jokers, and the state key fits in 63 bits when every tile is in play at most
    ``copies`` times; :func:`_dp_fits` checks each search, kept table jokers laid as tiles included)."""
    if rules.jokers >= rules.min_set_size:
        return False
    return _dp_fits(rules, rules.copies, rules.copies + rules.jokers, rules.jokers)


def _dp_fits(rules: RummikubRules, copies: int, slots: int, jokers: int) -> bool:
    """True if a DP search with these sizes has a state key below 63 bits."""
    from math import comb

    from kubasolve.kernels.rummikub_dp import key_bits

    n_states = comb(slots + rules.min_set_size, rules.min_set_size)
    return key_bits(n_states, rules.colours, copies, jokers, rules.min_first_meld) < 63


def _solve_dp(
    table: list[TileSet],
    rack_counts: np.ndarray,
    table_counts: np.ndarray,
    weights: np.ndarray,
    objective: Objective,
    first_meld: bool,
    rules: RummikubRules,
    budget: _Budget | None = None,
) -> Solution | None:
    """The DP answer. Scores are ``primary * (rack jokers + 1) - rack jokers played`` (then keep jokers).

    Every search only looks for layouts that beat the best so far (branch and bound). The searches: strict
    joker retrieval runs every variant (:func:`_variants`); free retrieval with table jokers first lays them
    as the tiles they stand for (also with the rack jokers, one joker fewer to place than the free search);
    with two rack jokers a one-joker search too. On small positions the joker-free searches run first,
    complete (cheap, a floor for the rest). Then the searches go best first: each has a bound (its upper
    bound, then the threshold of its last round that found nothing); the search with the highest bound
    (counting the rack jokers :func:`with_rack_jokers` could add to what it finds; fewest jokers first among
    equals) runs its next round, which looks only above its upper bound minus a growing gap; a round that
    finds a layout has found the search's best (a search returns the best layout above its threshold). Once
    no bound beats the best layout found, it is optimal (so a search stops as soon as another one's layout
    beats its bound; before, the searches went by joker count, each deepening to its own best). A strict
    case that retrieves one tile other than an earlier case (same jokers kept) leaves that tile out
    (:func:`_covered_tiles`). Searches with jokers may run with the numbers mirrored (``n`` down to 1,
    :class:`_Direction` picks the order): the same layouts, often found with far fewer states."""
    from kubasolve.kernels.rummikub_dp import solve_layout, upper_potential

    joker = rules.joker
    budget = budget or _Budget(None, None)
    j_optional = int(rack_counts[joker])
    scale = j_optional + 1
    meld = rules.min_first_meld if first_meld else 0
    tile_w = weights[:joker] * scale
    joker_w = int(weights[joker]) * scale - 1
    variants = _variants(table, rack_counts, rules, first_meld)
    free_jokers = 0 if first_meld or variants != [_PLAIN] else int(table_counts[joker])
    if free_jokers:
        # lower bounds: the table jokers kept as the tiles they stand for (first reading of each)
        variants = _variants(table, rack_counts, replace(rules, joker_retrieval="strict"), first_meld)[:1] + [_PLAIN]
    # searches: (variant, rack jokers allowed); with rack jokers, a search with them covers the one without
    searches: list[tuple[_Variant, int]] = []
    for var in variants:
        jf = len(var.retrieved) if var != _PLAIN else (0 if first_meld else int(table_counts[joker]))
        if jf == 0:
            searches.append((var, 0))
            if j_optional >= 2 and not free_jokers:
                # one rack joker first: a small state space, and with the other joker added a close incumbent
                searches.append((var, 1))
        if j_optional or jf:
            # (free table jokers: the kept-jokers case with the rack jokers has one joker fewer to place, so
            # fewer states, and often already places the whole rack: the free search is then skipped)
            searches.append((var, j_optional))

    def prepare(var: _Variant, jo: int) -> _Search:
        if first_meld:
            fixed, rack2 = np.zeros(rules.kinds, dtype=np.int64), rack_counts
        else:
            fixed, rack2 = _variant_counts(var, rack_counts, table_counts, rules)
        forced = fixed[:joker].copy()
        optional = rack2[:joker].copy()
        for t in _covered_tiles(var, variants):
            optional[t] = 0  # layouts playing it belong to an earlier case
        jf = int(fixed[joker])
        potential = upper_potential(forced, optional, tile_w, rules.colours, rules.numbers, rules.min_set_size, jf + jo)
        cmax = max(rules.copies, int((forced + optional).max()))
        slots = cmax + jf + jo
        bonus = int(sum(int(tile_w[t]) for t in var.retrieved))
        mirror = None
        if not meld and (jf + jo or big):
            # the same search with the numbers in reverse order (first melds count points by number: not mirrored;
            # joker-free ones only on big positions, where they deepen: on big_family(39, seed=3)[38] their failing
            # rounds take 10 819 states going up, 8 going down)
            mirror = (_mirror_numbers(forced, rules), _mirror_numbers(optional, rules))
        return _Search(
            var=var,
            jo=jo,
            jf=jf,
            forced=forced,
            optional=optional,
            cmax=cmax,
            slots=slots,
            bonus=bonus,
            upper=bonus + min(int(optional @ np.maximum(tile_w, 0)), int(potential[jf + jo, 0])) + jo * max(0, joker_w),
            potential=potential,
            mirror=mirror,
        )

    # joker-free searches deepen only on big positions (a full box: 787 618 nodes at the floor, 24 178 when the
    # first round asks for every tile); on the usual 20-40 tile tables the extra rounds cost more than they save
    in_play = int(table_counts.sum() + rack_counts.sum())
    big = in_play >= _DEEPEN_JOKER_FREE_FROM
    dominance = in_play >= _DOMINANCE_FROM

    mirrored_arrays: dict[str, np.ndarray] = {}

    def kernel(c: _Search, mirrored: bool, threshold: int, node_limit: int) -> tuple[int, int, np.ndarray, int]:
        if node_limit <= 0:  # nothing left to spend (the kernel would count its root node)
            return 2, 0, np.zeros((rules.numbers, rules.colours + 1, 3), np.int64), 0
        states, nxt, dominators = _dp_tables(rules.min_set_size, c.slots)
        if not dominance:
            dominators = _NO_DOMINATORS  # few tiles: the dominance probes cost about what they save
        forced, optional, weights_, potential = c.forced, c.optional, tile_w, c.potential
        if mirrored:
            assert c.mirror is not None
            forced, optional = c.mirror
            if "weights" not in mirrored_arrays:
                mirrored_arrays["weights"] = _mirror_numbers(tile_w, rules)
            weights_ = mirrored_arrays["weights"]
            if "potential" not in c.mirrored_potential:  # only when this search runs mirrored
                c.mirrored_potential["potential"] = upper_potential(
                    forced, optional, weights_, rules.colours, rules.numbers, rules.min_set_size, c.jf + c.jo
                )
            potential = c.mirrored_potential["potential"]
        found, score, dec, nodes = solve_layout(
            forced,
            optional,
            weights_,
            c.jf,
            c.jo,
            joker_w,
            rules.colours,
            rules.numbers,
            rules.min_set_size,
            c.cmax,
            c.slots,
            meld,
            states,
            nxt,
            threshold - c.bonus,
            potential,
            node_limit,
            dominators,
        )
        budget.spend(int(nodes))
        return int(found), int(score), dec, int(nodes)

    direction = _Direction()

    def run(c: _Search, threshold: int, more_rounds: bool) -> tuple[int, int, np.ndarray, bool]:
        """(found, score, decisions, mirrored) of the best layout of ``c`` above ``threshold``. A search with
        jokers (or joker-free on a big position) runs in the number order that has been the cheaper one
        (:class:`_Direction`); when it finds nothing and ``more_rounds`` (a lower threshold follows), while that
        order is known only from tiny searches, the other order runs it too, stopped once it costs as much."""
        pinned = _Direction.PINNED
        mirrored = c.mirror is not None and (direction.mirrored if pinned is None else pinned)
        found, score, dec, nodes = kernel(c, mirrored, threshold, budget.node_limit())
        if found == 2:
            budget.exhausted = True
            raise _OutOfBudget
        remeasure = pinned is None and c.mirror is not None and direction.measured < _Direction.REMEASURE_BELOW
        if remeasure and not found and more_rounds:
            other, _, _, other_nodes = kernel(c, not mirrored, threshold, min(nodes, budget.node_limit(strict=False)))
            if other != 2 and other_nodes < nodes:
                direction.mirrored = not mirrored
                nodes = other_nodes
            direction.measured = nodes
        return found, score + c.bonus, dec, mirrored

    rack_list = [t for t in range(rules.kinds) for _ in range(int(rack_counts[t]))]
    best: _Incumbent | None = None

    def record(c: _Search, score: int, dec: np.ndarray, mirrored: bool) -> _Incumbent:
        """The incumbent for a found layout (its sets are built only when needed)."""
        return _Incumbent(score, c, dec, mirrored)

    def with_rack_jokers(plain: _Incumbent) -> _Incumbent:
        """A joker-free incumbent with the rack jokers added where they fit (a joker extends any run or
        group with room, or splits a long run), when that is legal and scores more."""
        if plain.search.jf or not j_optional or joker_w <= 0:
            return plain
        sets, played = plain.materialise(rules)
        spare = j_optional - played.count(joker)
        grown = [tuple(s) for s in sets]
        added = 0
        while added < spare and _add_joker(grown, rules):
            added += 1
        if not added:
            return plain
        cand = _Incumbent(
            plain.score + added * joker_w, plain.search, plain.dec, plain.mirrored, grown, played + [joker] * added
        )
        if check_play(table, rack_list, cand.layout(table, first_meld, rules), rules):
            return plain  # e.g. a strict retrieval reading the new joker spoils; the plain layout stands
        return cand

    configs = [prepare(var, jo) for var, jo in searches]
    if any(c.mirror is not None for c in configs):
        direction.mirrored = _Direction.guess(rack_counts, table_counts, rules)
    if not all(_dp_fits(rules, c.cmax, c.slots, c.jf + c.jo) for c in configs):
        return None  # the integer programme takes over
    positive = tile_w[rack_counts[:joker] > 0]
    positive = positive[positive > 0]
    uniform = positive.size > 0 and int(positive.min()) == int(positive.max())
    unit = int(positive.max()) if uniform else 8 * scale
    proven = True
    try:
        if not big:
            # few tiles: the complete joker-free searches are cheap and give the others a floor at once
            for c in sorted((c for c in configs if not c.jf + c.jo), key=lambda c: -c.upper):
                floor = 0 if best is None else best.score
                if c.upper > floor:
                    found, score, dec, mirrored = run(c, floor, False)
                    if found and score > floor:
                        best = with_rack_jokers(record(c, score, dec, mirrored))
            configs = [c for c in configs if c.jf + c.jo]
        # best first: the next round is one of the search whose bound (its upper bound, or the threshold of its
        # last round that found nothing) is the highest; it looks only above the search's next threshold (its
        # upper bound minus a growing gap), and a search that finds a layout there has found its best. Once no
        # search's bound beats the best layout found, that layout is optimal. The order counts in a search
        # without table jokers the rack jokers it leaves out (:func:`with_rack_jokers` may add them to what it
        # finds), and goes fewest jokers first among equals: cheaper searches, which often settle it (a whole rack
        # laid joker-free, then the jokers added)
        bound = {id(c): c.upper for c in configs}
        gaps = {id(c): (0, 0) for c in configs}  # (gap, rounds run)

        def priority(c: _Search) -> tuple[int, int, int]:
            lift = 0 if c.jf else (j_optional - c.jo) * max(0, joker_w)
            return (-(bound[id(c)] + lift), c.jf + c.jo, -c.upper)

        while True:
            floor = 0 if best is None else best.score
            live = [c for c in configs if bound[id(c)] > floor]
            if not live:
                break
            c = min(live, key=priority)
            gap, steps = gaps[id(c)]
            threshold = max(floor, c.upper - gap - scale)  # finds upper - gap itself, with any count of rack jokers
            found, score, dec, mirrored = run(c, threshold, threshold > floor)
            if found and score > floor:
                best = with_rack_jokers(record(c, score, dec, mirrored))
                bound[id(c)] = 0  # its best (above the threshold, so above its other layouts)
                continue
            bound[id(c)] = threshold  # threshold == floor: searched to the floor, nothing more to find
            steps += 1
            if not c.jf + c.jo:
                gap = (0, unit, 3 * unit)[steps] if steps < 3 else c.upper  # joker-free: cheap, soon complete
            else:
                gap = gap + unit if steps <= 3 and uniform else max(unit, gap * 2)
            gaps[id(c)] = (gap, steps)
    except _OutOfBudget:
        proven = False
    if best is None:
        return _no_move(table, objective, first_meld, rules, proven)
    new_sets, played = best.materialise(rules)
    var = best.search.var
    if var.virtual:
        new_sets = _restore_jokers(new_sets, var.virtual, rules, var.substituted)
    played_counts = tile_counts(played, rules)
    primary = int(weights @ played_counts)
    if not played or primary <= 0:
        return _no_move(table, objective, first_meld, rules, proven)
    return _solution(table, new_sets, played, primary, objective, first_meld, int(played_counts[joker]), rules, proven)


def _add_joker(sets: list[TileSet], rules: RummikubRules) -> bool:
    """Place one more joker in the legal ``sets`` (in place) keeping them legal: at the end of a set with
    room, else by splitting a joker-free run of ``2m - 1`` or more tiles into its first ``m - 1`` tiles plus
    the joker and the rest. False when neither works."""
    joker, m = rules.joker, rules.min_set_size
    for i, s in enumerate(sets):
        if is_valid_set(s + (joker,), rules):
            sets[i] = s + (joker,)
            return True
    for i, s in enumerate(sets):
        if joker in s or len(s) < 2 * m - 1:
            continue
        run = sorted(s)
        head, tail = tuple(run[: m - 1]) + (joker,), tuple(run[m - 1 :])
        if run[-1] - run[0] == len(run) - 1 and is_valid_set(head, rules) and is_valid_set(tail, rules):
            sets[i] = head
            sets.append(tail)
            return True
    return False


_DEEPEN_JOKER_FREE_FROM = 60
"""Tiles in play (table and rack) from which joker-free DP searches deepen too."""
_DOMINANCE_FROM = 20
"""Tiles in play from which the DP drops dominated states. (60 while every layer had a sparse hash table, the
probes then mostly cache misses; with tables sized to the layer the probes save 5-20% of a search's time from
about 30 tiles in the search on, and cost about what they save below 20.)"""
_NO_DOMINATORS = np.zeros((1, 0), dtype=np.int64)


class _OutOfBudget(Exception):
    """A search hit the work budget of :func:`solve` (``max_nodes`` / ``time_limit_ms``)."""


@dataclass
class _Budget:
    """What a solve may still spend: DP nodes and wall time (a deadline from ``time.perf_counter``); ``used``: the
    nodes spent; ``stop``: once set, the next search does not start (an engine's ``stop``)."""

    nodes: int | None
    deadline: float | None
    exhausted: bool = False
    used: int = 0
    stop: StopFlag | None = None

    NODES_PER_MS = 1500
    """A conservative DP speed (measured 3 000-4 000 nodes/ms on a busy 2-core container) to turn the time
    left into a node limit for the next search (the numba kernel cannot read the clock)."""

    def node_limit(self, strict: bool = True) -> int:
        """Nodes the next search may take; past the deadline raises :class:`_OutOfBudget` (``strict=False``:
        returns 0 instead, for an optional search)."""
        import time

        limit = 2**62 if self.nodes is None else self.nodes
        if self.stop is not None and self.stop.is_set():
            if not strict:
                return 0
            self.exhausted = True
            raise _OutOfBudget
        if self.deadline is not None:
            left_ms = (self.deadline - time.perf_counter()) * 1e3
            if left_ms <= 0:
                if not strict:
                    return 0
                self.exhausted = True
                raise _OutOfBudget
            limit = min(limit, int(left_ms * self.NODES_PER_MS))
        if limit <= 0 and strict:  # every node spent: no search starts (the DP kernel stops at its limit exactly)
            self.exhausted = True
            raise _OutOfBudget
        return max(limit, 0)

    def spend(self, nodes: int) -> None:
        self.used += nodes
        if self.nodes is not None:
            self.nodes -= nodes

    def spent(self) -> bool:
        """True once a search stopped for the budget."""
        return self.exhausted


@dataclass
class _Incumbent:
    """The best layout found so far by the DP searches: a search's decisions, turned into sets (kept table
    jokers still laid as their tiles) and the rack tiles played on demand."""

    score: int
    search: _Search
    dec: np.ndarray
    mirrored: bool
    """The decisions are by number in reverse order (``search.mirror``)."""
    sets: list[TileSet] | None = None
    played: list[Tile] | None = None

    def materialise(self, rules: RummikubRules) -> tuple[list[TileSet], list[Tile]]:
        """(sets, rack tiles played) of this layout."""
        if self.sets is None or self.played is None:
            search = self.search
            if self.mirrored:
                assert search.mirror is not None
                sets, played = _layout_from_decisions(self.dec, search.mirror[0], search.jf, rules, mirrored=True)
            else:
                sets, played = _layout_from_decisions(self.dec, search.forced, search.jf, rules)
            self.sets, self.played = sets, played + list(self.search.var.retrieved)
        return self.sets, self.played

    def layout(self, table: Sequence[TileSet], first_meld: bool, rules: RummikubRules) -> list[TileSet]:
        """The whole table after this play."""
        sets, var = self.materialise(rules)[0], self.search.var
        if var.virtual:
            sets = _restore_jokers(sets, var.virtual, rules, var.substituted)
        return list(table) + list(sets) if first_meld else list(sets)


@dataclass(frozen=True)
class _Search:
    """One DP search: a variant of the table jokers with ``jo`` rack jokers allowed, ready to run."""

    var: _Variant
    jo: int
    jf: int
    """Jokers that must be placed (table jokers left free, or retrieved ones)."""
    forced: np.ndarray
    optional: np.ndarray
    cmax: int
    """Most copies of one numbered tile in play (kept jokers laid as tiles can exceed ``rules.copies``)."""
    slots: int
    bonus: int
    """Score of the rack tiles the variant has already laid (retrieving table jokers)."""
    upper: int
    """Upper bound of the search's score (bonus included)."""
    potential: np.ndarray
    mirror: tuple[np.ndarray, np.ndarray] | None = None
    """(forced, optional) with the numbers in reverse order (``n`` first): runs read backwards are
    runs, so the same search can go from ``n`` down to 1, often far cheaper when jokers are in play (the
    bound's look-ahead is not symmetric); None when not offered (a first meld, or no jokers on a position
    below ``_DEEPEN_JOKER_FREE_FROM`` tiles)."""
    mirrored_potential: dict[str, np.ndarray] = field(default_factory=dict, compare=False)
    """The mirrored search's ``potential``, worked out when it first runs."""


def _mirror_numbers(counts: np.ndarray, rules: RummikubRules) -> np.ndarray:
    """A per-tile array (``colour * numbers + number - 1``) with the numbers reversed (``n + 1 - number``)."""
    return np.ascontiguousarray(counts.reshape(rules.colours, rules.numbers)[:, ::-1].reshape(-1))


@dataclass
class _Direction:
    """The number order the searches with jokers (and the joker-free ones of a big position) of one solve
    use. Both orders are exact; their costs can
    differ 20-50x on big tables with two jokers, the cheaper one changing from position to position, and a
    search's cheaper order mostly stays the cheaper one for its next rounds and the next searches. So the
    searches start in the order :meth:`guess` picks from the rack, and the first failing rounds with jokers
    that another round follows run in both orders (the second stopped
    as soon as it has cost as much as the first) until one has taken at least ``REMEASURE_BELOW`` nodes; then
    the cheaper order is kept. A round that finds its layout is not repeated: often the last search."""

    mirrored: bool = False
    measured: int = -1
    """Nodes of the cheaper order in the last search run both ways (-1: none yet)."""

    @staticmethod
    def guess(rack_counts: np.ndarray, table_counts: np.ndarray, rules: RummikubRules) -> bool:
        """The first order to try: mirrored when the rack's numbered tiles lie higher on average than the
        table's (than the middle number on an empty table). Simulated from both orders' costs of every search
        on 483 generated big positions, this start (then learning as above) has the worst case of an oracle
        that picks the cheaper order of each search, in all four settings (free / strict, tiles / value);
        against the rack above the middle number: 12.6 / 10.6 / 14.3 / 13.2 -> 11.8 / 6.4 / 5.4 / 13.2 ms."""
        numbers = np.arange(rules.joker) % rules.numbers + 1
        rack = rack_counts[: rules.joker]
        table = table_counts[: rules.joker]
        n_rack, n_table = int(rack.sum()), int(table.sum())
        if not n_rack:
            return False
        if not n_table:
            return 2 * int(rack @ numbers) > (rules.numbers + 1) * n_rack
        return int(rack @ numbers) * n_table > int(table @ numbers) * n_rack

    REMEASURE_BELOW = 500
    PINNED: bool | None = None
    """Tests pin the order here (True: mirrored, False: forward) to check each one on its own."""


_DP_TABLES: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _dp_tables(m: int, slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The DP's per-colour run states, their transitions and their dominators (cached per size)."""
    from kubasolve.kernels.rummikub_dp import colour_dominators, colour_states, colour_transitions

    key = (m, slots)
    if key not in _DP_TABLES:
        states = colour_states(m, slots)
        _DP_TABLES[key] = (states, colour_transitions(states, slots), colour_dominators(states, slots))
    return _DP_TABLES[key]


def _layout_from_decisions(
    dec: np.ndarray, forced: np.ndarray, jokers_forced: int, rules: RummikubRules, mirrored: bool = False
) -> tuple[list[TileSet], list[Tile]]:
    """Turn the DP's per-number decisions into concrete sets (same extension order as the DP) and the
    rack tiles they use. ``mirrored``: decisions and ``forced`` are of the search with the numbers reversed
    (:func:`_mirror_numbers`); the sets and tiles returned are real ones."""
    n, k, m, joker = rules.numbers, rules.colours, rules.min_set_size, rules.joker

    def real(t: Tile) -> Tile:
        return t if t == joker or not mirrored else t - t % n + n - 1 - t % n

    def run_set(r: list[int]) -> TileSet:
        # a run is laid in number order: a mirrored one, read backwards, runs upwards again
        return tuple(real(t) for t in (reversed(r) if mirrored else r))

    open_runs: list[list[list[int]]] = [[] for _ in range(k)]
    sets: list[TileSet] = []
    played: list[Tile] = []
    jokers_used = 0
    for v in range(1, n + 1):
        group_reals: list[int] = []
        row = dec[v - 1].tolist()
        for c in range(k):
            u, g, jr = row[c]
            runs = open_runs[c]
            if not (u or jr or runs):
                continue
            t = c * n + v - 1
            if u > forced[t]:
                played.extend([t] * (u - int(forced[t])))
            group_reals.extend([t] * g)
            items = [t] * (u - g) + [joker] * jr
            jokers_used += jr
            still: list[list[int]] = []
            full = [r for r in runs if len(r) >= m]
            for r in runs:  # short runs first: they must be extended
                if len(r) < m:
                    r.append(items.pop())
                    still.append(r)
            for r in full:
                if items:
                    r.append(items.pop())
                    still.append(r)
                else:
                    sets.append(run_set(r))
            still.extend([it] for it in items)
            open_runs[c] = still
        jg = row[k][0]
        jokers_used += jg
        total = len(group_reals) + jg
        if total:
            maxg = max(group_reals.count(t) for t in set(group_reals))
            q = max(maxg, -(-total // k))
            groups: list[list[int]] = [[] for _ in range(q)]
            for i, t in enumerate(sorted(group_reals)):
                groups[i % q].append(t)
            for gr in groups:
                gr.sort()
            for _ in range(jg):
                target = min((gr for gr in groups if len(gr) < k), key=len)
                target.append(joker)
            sets.extend(tuple(real(t) for t in gr) for gr in groups)
    for runs in open_runs:
        sets.extend(run_set(r) for r in runs)
    played.extend([joker] * (jokers_used - jokers_forced))
    played = [real(t) for t in played]
    # runs were built in number order (jokers where they stand), groups by colour with jokers last
    return sets, played


def _solution(
    table: Sequence[TileSet], new_sets: list[TileSet], played: Sequence[Tile], primary: int,
    objective: Objective, first_meld: bool, jokers_played: int, rules: RummikubRules, proven: bool = True,
) -> Solution:
    """The answer for a found play: a first meld adds its sets beside the untouched table."""
    layout = list(table) + new_sets if first_meld else new_sets
    kept = _count_kept(table, layout)
    return Solution(
        table=tuple(layout),
        played=tuple(sorted(played)),
        value=primary,
        objective=objective,
        first_meld=first_meld,
        kept_sets=kept,
        changed_sets=len(table) - kept,
        jokers_played=jokers_played,
        rules=rules,
        proven_optimal=proven,
    )


def _count_kept(original: Sequence[TileSet], layout: Sequence[TileSet]) -> int:
    before = Counter(canonical_set(s) for s in original)
    after = Counter(canonical_set(s) for s in layout)
    return sum((before & after).values())


def _no_move(
    table: Sequence[TileSet], objective: Objective, first_meld: bool, rules: RummikubRules, proven: bool = True
) -> Solution:
    return Solution(
        table=tuple(tuple(s) for s in table),
        played=(),
        value=0,
        objective=objective,
        first_meld=first_meld,
        kept_sets=len(table),
        changed_sets=0,
        jokers_played=0,
        rules=rules,
        proven_optimal=proven,
    )


def check_play(
    before: Iterable[Iterable[Tile]], rack: Iterable[Tile], after: Iterable[Iterable[Tile]], rules: RummikubRules
) -> list[str]:
    """Independent check of a play: reasons it is illegal (empty list: legal). Used by tests and the game."""
    before_sets = [tuple(s) for s in before]
    after_sets = [tuple(s) for s in after]
    problems = [f"{describe_set(s, rules)}: {p}" for s in after_sets if (p := set_problem(s, rules))]
    placed = Counter(t for s in after_sets for t in s)
    old = Counter(t for s in before_sets for t in s)
    missing = old - placed
    if missing:
        problems.append(f"table tiles {format_tiles(sorted(missing.elements()), rules)} would leave the table")
    added = placed - old
    extra = added - Counter(rack)
    if extra:
        problems.append(
            f"tiles {format_tiles(sorted(extra.elements()), rules)} are neither on the table nor on the rack"
        )
    if not problems and rules.joker_retrieval == "strict":
        problem = joker_retrieval_problem(before_sets, after_sets, rules)
        if problem:
            problems.append(problem)
    return problems


def joker_retrieval_problem(
    before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]], rules: RummikubRules
) -> str | None:
    """Why ``after`` breaks the strict joker rule, or None: every table joker must still stand for the tile
    it stood for before (in some reading of the old and the new sets), unless that tile, played from the
    rack, has taken its place. Counted as multisets: the new table's tiles played from the rack plus what
    its jokers stand for must cover what the old table's jokers stood for."""
    joker = rules.joker
    old_sets = [tuple(s) for s in before if joker in s]
    if not old_sets:
        return None
    new_sets = [tuple(s) for s in after if joker in s]
    added = Counter(t for s in after for t in s if t != joker) - Counter(t for s in before for t in s if t != joker)
    new_readings = [
        Counter(itertools.chain.from_iterable(r))
        for r in itertools.product(*[joker_readings(s, rules) for s in new_sets])
    ]
    missing: Counter[int] = Counter()
    # an illegal old set (never on a game's table) has no reading: its jokers are read as nothing
    for old_reading in itertools.product(*[joker_readings(s, rules) or [()] for s in old_sets]):
        need = Counter(itertools.chain.from_iterable(old_reading))
        for have in new_readings:
            lack = need - (have + added)
            if not lack:
                return None
            if not missing or sum(lack.values()) < sum(missing.values()):
                missing = lack
    return (
        "a joker on the table may only be taken by replacing it with the tile it stands for, from the rack"
        f" (strict joker retrieval): the joker(s) standing for {format_tiles(sorted(missing.elements()), rules)}"
        " moved without that tile taking its place"
    )


_WARM: set[RummikubRules] = set()


def warm_up(rules: RummikubRules) -> None:
    """One small solve per process and rule set (a table, a rack with two jokers, both objectives) before the first
    budget's clock starts: it loads the solver's kernels from the numba cache (0.1-1 s, more while they first
    compile), which is no part of a move; without it a first budgeted AI move with ``movetime_ms`` 30 drew a tile."""
    if rules in _WARM:
        return
    from kubasolve.games.rummikub.tiles import make_tile

    # a run of the first colour on the table; the rest of the colour and the rules' jokers (at most 2) on the rack
    run = min(rules.min_set_size, rules.numbers)
    table = [[make_tile(0, n, rules) for n in range(1, run + 1)]]
    rack = [make_tile(0, n, rules) for n in range(run + 1, rules.numbers + 1)] + [rules.joker] * min(rules.jokers, 2)
    for objective in (Objective.TILE_COUNT, Objective.TOTAL_VALUE):
        solve(table, rack, rules, objective)
    _WARM.add(rules)
