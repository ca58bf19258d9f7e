"""Scruble Cube benchmark scenarios (issue 11 targets on the bundled English lexicon: best word
within 2 twists <= 10 ms, within 3 twists <= 300 ms).

Inputs: 6 seeded scrambles of the default English peg set (2 wildcards, 4 premium pegs). A depth-d
search expands every distinct state within d twists (37 at depth 1, about 1,060 at depth 2, about
30,000 at depth 3); every scenario reports ``throughput`` in states/s (``--json``; the reference's
states are its 37 twist sequences). ``reference-1`` is the slow reference (every twist sequence,
every run, set lookup) at depth 1, the baseline of ``best-1-all``. ``planner-turn*``: a planner turn on
6 midgame positions without a budget and with ``movetime_ms`` 100 and 20 (issue 8: the budgeted turn
answers within its time; the target is the budget).

``python -m kubasolve.bench.scruble_scenarios [MIN_TIME_S]`` prints the table with states/s and
each scenario's states/s ratio to the reference's, from the same run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubasolve.bench.runner import Scenario, cycle

SEEDS = (1, 2, 3, 4, 5, 6)


def _inputs(letters_only: bool = False) -> tuple[Any, Any, list[Any]]:
    from kubasolve.games.scruble.position import Cube
    from kubasolve.games.scruble.rules import ScrubleRules
    from kubasolve.lexicon import load_lexicon

    rules = ScrubleRules()
    cubes = [Cube.scrambled(rules.pegs, s) for s in SEEDS]
    if letters_only:  # wildcards and premiums as E, so the reference needs set lookups only
        cubes = [Cube(tuple(c if c.isalpha() else "E" for c in cube.symbols)) for cube in cubes]
    return load_lexicon("en"), rules, cubes


def _best(depth: int, top: int = 1, letters_only: bool = False) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from kubasolve.games.scruble.solver import search

        lex, rules, cubes = _inputs(letters_only)
        search(cubes[0], lex, rules, 1, 1)  # compile / load the kernel outside the timing
        return cycle(cubes, lambda c: search(c, lex, rules, depth, top))

    return setup


REFERENCE_SEQUENCES = 37
"""Twist sequences the depth-1 reference scores: the empty one and the 36 twists."""


def _reference() -> Callable[[], object]:
    from kubasolve.games.scruble.reference import reference_best_plain

    lex, rules, cubes = _inputs(letters_only=True)
    words = list(lex)
    return cycle(cubes, lambda c: reference_best_plain(c, words, rules, 1))


def _planner_turn(movetime_ms: int | None) -> Callable[[], Callable[[], object]]:
    """A planner turn on midgame positions (each seed's game after two greedy turns), under a work budget:
    ``movetime_ms``, or a roomy node budget (the unbudgeted turn, with its states counted)."""

    def setup() -> Callable[[], object]:
        from kubasolve.games.scruble.ai import make_policy
        from kubasolve.games.scruble.game import ScrubleGame
        from kubasolve.games.scruble.solver import StateBudget

        lex, _, _ = _inputs()
        games = []
        for seed in SEEDS:
            game = ScrubleGame.new(2, seed)
            greedy = make_policy("greedy", seed)
            for _ in range(2):
                game.play(greedy(game, lex), lex)
            games.append(game)
        planner = make_policy("planner")
        planner(games[0], lex)  # compile / load the kernel outside the timing

        def turn(game: Any) -> object:
            budget = StateBudget(max_nodes=10**8) if movetime_ms is None else StateBudget(movetime_ms=movetime_ms)
            planner(game, lex, budget)
            return budget

        return cycle(games, turn)

    return setup


def _states(out: Any) -> float:
    """States a ``search`` call expanded (its ``SearchStats``), or a planner turn spent (its budget)."""
    return float(out.nodes) if hasattr(out, "nodes") else float(out[1].states)


def scenarios() -> list[Scenario]:
    return [
        Scenario("reference-1", "scruble-depth-1", _reference, work=lambda _: REFERENCE_SEQUENCES, work_unit="states",
                 description="slow reference, depth 1 (37 sequences, every run, set lookup), letters-only cubes"),
        Scenario("best-1-all", "scruble-depth-1", _best(1, 4096, letters_only=True), baseline="reference-1",
                 description="every word within 1 twist (37 states), same letters-only cubes", work=_states, work_unit="states"),
        Scenario("best-1", "scruble-depth-1", _best(1), description="best word within 1 twist (37 states)", work=_states, work_unit="states"),
        Scenario("best-2", "scruble-depth-2", _best(2), target_ms=10.0, description="best word within 2 twists (~1,060 states)",
                 work=_states, work_unit="states"),
        Scenario("best-2-top10", "scruble-depth-2", _best(2, 10), baseline="best-2", description="10 best words within 2 twists",
                 work=_states, work_unit="states"),
        Scenario("best-3", "scruble-depth-3", _best(3), target_ms=300.0, description="best word within 3 twists (~30,000 states)",
                 work=_states, work_unit="states"),
        Scenario("planner-turn", "scruble-planner", _planner_turn(None), work=_states, work_unit="states",
                 description="planner turn, midgame (6 games after 2 greedy turns), no budget"),
        Scenario("planner-turn-100ms", "scruble-planner", _planner_turn(100), baseline="planner-turn", target_ms=100.0,
                 work=_states, work_unit="states", description="the same turns with movetime_ms 100 (issue 8)"),
        Scenario("planner-turn-20ms", "scruble-planner", _planner_turn(20), baseline="planner-turn", target_ms=20.0,
                 work=_states, work_unit="states", description="the same turns with movetime_ms 20"),
    ]


def main(argv: list[str] | None = None) -> None:
    """Print medians, states/s and the states/s ratio to the reference (one run, stdout)."""
    import sys

    from kubasolve.bench.runner import run_scenarios

    args = sys.argv[1:] if argv is None else argv
    min_time = float(args[0]) if args else 0.5
    results = run_scenarios(scenarios(), min_time_s=min_time)
    ref = next(float(r.extra["throughput"]) for r in results if r.name == "reference-1")  # type: ignore[arg-type]
    print(f"{'scenario':<20}{'median ms':>11}{'target':>8}{'states':>9}{'states/s':>12}{'x reference':>13}")
    for r in results:
        rate = float(r.extra["throughput"])  # type: ignore[arg-type]
        target = "" if r.target_ms is None else f"{r.target_ms:g}"
        print(f"{r.name:<20}{r.median_ms:>11.2f}{target:>8}{float(r.extra['work_per_call']):>9.0f}"  # type: ignore[arg-type]
              f"{rate:>12,.0f}{rate / ref:>12,.0f}x")


if __name__ == "__main__":
    main()
