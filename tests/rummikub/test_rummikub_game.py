"""Whole games: dealing from a seed, legal and illegal moves, the first meld, drawing, the timer
variant, end of game and scores, JSON state and replay; AIs, the CLI and the engine commands."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kubasolve.errors import IllegalMoveError, PositionError
from kubasolve.games.rummikub import RummikubRules, check_play, parse_tiles, solve
from kubasolve.games.rummikub.ai import ai_move, play_game
from kubasolve.games.rummikub.game import RummikubGame
from kubasolve.games.rummikub.tiles import tile_name

R = RummikubRules()


def names(tiles) -> list[str]:  # type: ignore[no-untyped-def]
    return [tile_name(t, R) for t in tiles]


def test_deal_is_deterministic_per_seed() -> None:
    a, b, c = (RummikubGame.new(3, seed=7), RummikubGame.new(3, seed=7), RummikubGame.new(3, seed=8))
    assert a.racks == b.racks and a.pool == b.pool and a.racks != c.racks
    assert all(len(r) == 14 for r in a.racks) and len(a.pool) == 106 - 3 * 14


def _game_with(racks: list[str], table: str = "", pool: str = "r1 r2 r3 r4 r5") -> RummikubGame:
    from kubasolve.games.rummikub import parse_table

    g = RummikubGame.new(len(racks), seed=0)
    g.racks = [sorted(parse_tiles(r, R)) for r in racks]
    g.table = parse_table(table, R) if table else []
    g.pool = parse_tiles(pool, R)
    return g


def test_illegal_moves_are_rejected_with_reasons_and_change_nothing() -> None:
    g = _game_with(["r10 r11 r12 b1", "k1 k2 k3"])
    before = g.to_dict()
    with pytest.raises(IllegalMoveError, match="at least 3 tiles"):
        g.apply({"type": "play", "table": [["r10", "r11"]]})
    with pytest.raises(IllegalMoveError, match="neither on the table nor on the rack"):
        g.apply({"type": "play", "table": [["o5", "o6", "o7"]]})
    with pytest.raises(PositionError, match="a move is"):
        g.apply({"type": "pass"})
    assert g.to_dict() == before


def test_first_meld_needs_30_points_from_own_tiles() -> None:
    """Rule: "The first meld of a player is worth >= 30 points from their own tiles only, without table tiles"."""
    g = _game_with(["r1 r2 r3 r4 b9", "k1 k2 k3"], table="b10 b11 b12")
    with pytest.raises(IllegalMoveError, match="must reach 30"):
        g.apply({"type": "play", "table": [["b10", "b11", "b12"], ["r1", "r2", "r3", "r4"]]})
    with pytest.raises(IllegalMoveError, match="before the first meld"):
        g.apply({"type": "play", "table": [["b9", "b10", "b11", "b12"]]})
    g.melded[0] = True  # after the first meld, the table may be rearranged
    g.apply({"type": "play", "table": [["b9", "b10", "b11", "b12"], ["r1", "r2", "r3", "r4"]]})
    assert g.racks[0] == [] and g.over and g.winner == 0


def test_no_play_draws_a_tile_and_timeout_draws_three() -> None:
    """Rule: "No play: draw a tile ... Timer variant: a failed timed turn restores the table and draws 3 tiles"."""
    g = _game_with(["r10", "k1"], table="b1 b2 b3", pool="o1 o2 o3 o4 o5")
    g.apply({"type": "draw"})
    assert len(g.racks[0]) == 2 and len(g.pool) == 4 and g.turn == 1
    g.apply({"type": "timeout"})
    assert len(g.racks[1]) == 4 and len(g.pool) == 1 and g.table == [tuple(parse_tiles("b1 b2 b3", R))]


def test_winner_scores_what_the_losers_lose_and_a_joker_costs_30() -> None:
    """Rule: "Losers count their rack (joker = 30) as minus points; the winner scores the sum of the others'"."""
    g = _game_with(["r10 r11 r12", "k1 J", "o5"])
    g.melded = [True, True, True]
    g.apply({"type": "play", "table": [["r10", "r11", "r12"]]})
    assert g.over and g.winner == 0 and g.scores == [31 + 5, -31, -5]


def test_game_ends_when_the_pool_is_empty_and_nobody_can_play() -> None:
    """Rule: with an empty pool play goes on "totdat niemand meer een geldige zet kan doen" (until nobody can
    make a valid move); then the lowest rack wins."""
    g = _game_with(["r10 b2", "k1 J"], pool="")
    g.apply({"type": "draw"})
    # nobody can meld 30 from these racks: the first pass ends the game
    # player 0 holds r10 b2 (12 points), player 1 holds k1 J (31): the lowest rack wins
    assert g.over and g.winner == 0 and g.end_reason == "no-legal-move"
    # "Each loser adds up his/her total tile value and subtracts from it the winner's total. This result is scored
    # as a minus amount. This total is scored to the winner as a plus amount." (Goliath): 31 - 12 = 19
    assert g.scores == [19, -19]


def test_a_blocked_game_scores_each_loser_from_the_winners_rack() -> None:
    """Rule (Goliath): "In the rare event that all the tiles in the pool are used before any player goes
    'Rummikub', the player with the lowest count on his/her rack is the winner. Each loser adds up his/her total
    tile value and subtracts from it the winner's total. This result is scored as a minus amount. This total is
    scored to the winner as a plus amount." Before: the losers lost their whole racks, as if the winner had gone
    out holding nothing (12 points on the winner's rack scored nowhere)."""
    g = _game_with(["r10 b2", "k1 J", "o13 b13 k9"], pool="")
    g.apply({"type": "draw"})
    racks = [12, 31, 35]
    assert g.over and g.end_reason == "no-legal-move" and [g.rack_value(p) for p in range(3)] == racks
    assert g.winner == 0 and g.scores == [(31 - 12) + (35 - 12), -(31 - 12), -(35 - 12)]
    assert sum(g.scores) == 0  # "the plus scores should equal the total of the minus scores"
    rules = RummikubRules(empty_pool_end="round-of-passes")
    h = RummikubGame.new(3, seed=0, rules=rules)
    h.racks, h.pool = [list(r) for r in g.racks], []
    for _ in range(3):
        h.apply({"type": "draw"})
    assert h.over and h.end_reason == "round-of-passes" and h.scores == g.scores


def test_with_the_pool_empty_a_player_who_can_play_may_not_pass() -> None:
    """Rule (Goliath): "Should the pool run out of tiles, every player in turn 'plays the table' by placing at least
    one tile from their racks onto the table until someone finishes. If players are unable to proceed further, the
    game ends." Before: drawing from the empty pool was a pass at will, so two players holding back could keep a game
    going for ever (it never ended)."""
    g = _game_with(["r10 r11 r12 b2", "k1 J"], pool="")
    g.melded = [True, False]  # player 1 has not melded: k1 J cannot open with 30 points
    before = g.to_dict()
    with pytest.raises(IllegalMoveError, match="pool is empty: you must play"):
        g.apply({"type": "draw"})
    assert g.to_dict() == before
    from kubasolve.games import load_game

    game = load_game("rummikub")
    legal = game.legal_moves(game.state_of(g), top=5)
    assert {"type": "draw"} not in [m.action for m in legal.moves] and legal.moves[0].action["type"] == "play"
    g.apply({"type": "play", "table": [["r10", "r11", "r12"]]})  # then player 1 (k1 J, nothing to meld) passes
    g.apply({"type": "draw"})  # and b2 alone cannot be played either: nobody can play, the game ends
    assert g.over and g.end_reason == "no-legal-move" and g.scores == [29, -29]


def test_round_of_passes_setting_ends_after_a_whole_round() -> None:
    """The earlier reading as a rule setting: ``empty_pool_end = "round-of-passes"``."""
    rules = RummikubRules(empty_pool_end="round-of-passes")
    g = RummikubGame.new(2, seed=0, rules=rules)
    g.racks = [sorted(parse_tiles("r10 b2", rules)), sorted(parse_tiles("k1 J", rules))]
    g.pool = []
    g.apply({"type": "draw"})
    assert not g.over
    g.apply({"type": "draw"})
    assert g.over and g.winner == 0 and g.end_reason == "round-of-passes"


# min_first_meld 90 with four greedy players: some games run the pool dry with players unable to meld
BLOCKED = RummikubRules(min_first_meld=90)


def _greedy_until(seed: int, rules: RummikubRules, stop) -> RummikubGame:  # type: ignore[no-untyped-def]
    g = RummikubGame.new(4, seed=seed, rules=rules)
    for _ in range(500):
        if g.over or stop(g):
            break
        g.apply(ai_move(g, "greedy"))
    return g


def test_a_played_game_reaches_the_no_legal_move_ending() -> None:
    """Rule: the game ends when the pool is empty and nobody can make a valid move (reached through play)."""
    g = _greedy_until(0, BLOCKED, lambda g: False)
    assert g.over and g.end_reason == "no-legal-move" and g.pool == []
    for p in range(4):  # independently: no player has any play (first meld rules for those who have not melded)
        sol = solve(g.table, g.racks[p], BLOCKED, "tiles", first_meld=not g.melded[p], method="ilp")
        assert not sol.found
    assert g.winner == min(range(4), key=lambda p: (g.rack_value(p), p))
    assert RummikubGame.from_dict(g.to_dict()).end_reason == "no-legal-move"


def test_an_ai_cut_by_its_budget_still_plays_when_the_pool_is_empty() -> None:
    """With the pool empty a draw is refused while a play exists, so an AI whose budget ran out before it found
    a play searches on (before the rule was enforced it drew: a pass)."""
    from kubasolve.games.rummikub.ai import MoveBudget

    for kind in ("greedy", "holdback"):
        g = _game_with(["r10 r11 r12 b2 o5 k7 b9 k12", "k1 J"], table="o1 o2 o3 | r4 b4 k4", pool="")
        g.melded = [True, False]
        budget = MoveBudget(max_nodes=1)
        assert not budget.solve(g, "tiles").found  # the budget alone finds nothing
        move = ai_move(g, kind, MoveBudget(max_nodes=1))
        assert move["type"] == "play"
        g.apply(move)


def test_voluntary_passes_are_refused_or_end_the_game_by_the_setting() -> None:
    """With an empty pool a player who can play must ("plays the table") under ``no-legal-move``; a whole round of
    passes ends the game under ``round-of-passes``."""
    g = _greedy_until(0, BLOCKED, lambda g: not g.pool and g.has_legal_play(g.turn))
    assert not g.over and not g.pool and g.has_legal_play(g.turn)
    moves = list(g.moves)
    h = RummikubGame.new(4, seed=0, rules=BLOCKED).replay(moves)
    with pytest.raises(IllegalMoveError, match="pool is empty"):
        h.apply({"type": "draw"})
    rules = RummikubRules(min_first_meld=90, empty_pool_end="round-of-passes")
    h = RummikubGame.new(4, seed=0, rules=rules).replay(moves)
    for _ in range(4):  # everyone passes once although the first player could play
        if not h.over:
            h.apply({"type": "draw"})
    assert h.over and h.end_reason == "round-of-passes"


def test_json_state_replays_to_the_same_game() -> None:
    g = RummikubGame.new(2, seed=11)
    play_game(g, ["greedy", "greedy"], max_turns=30)
    data = json.loads(json.dumps(g.to_dict()))
    again = RummikubGame.from_dict(data)
    assert again.to_dict() == g.to_dict()
    data["moves"][0] = {"type": "play", "table": [["r1", "r1", "r1"]]}
    with pytest.raises(IllegalMoveError, match="move 1 of the replay"):
        RummikubGame.from_dict(data)


@pytest.mark.parametrize("kind", ["greedy", "holdback"])
def test_ai_games_only_make_legal_moves(kind: str) -> None:
    g = RummikubGame.new(2, seed=5)
    for _ in range(400):
        if g.over:
            break
        before, rack = list(g.table), list(g.rack)
        move = ai_move(g, kind)
        g.apply(move)  # apply() validates independently and would raise on an illegal move
        if move["type"] == "play":
            assert check_play(before, rack, g.table, R) == []
    assert g.over


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kubasolve", "rummikub", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_solve_text_json_and_errors() -> None:
    out = _cli("solve", "r1 r2 r3 | b10 o10 k10", "--rack", "r4 b11 b12")
    assert out.returncode == 0 and "r1 r2 r3 r4" in out.stdout
    js = _cli("solve", "r1 r2 r3", "--rack", "r4 J", "--objective", "keep-jokers", "--json")
    data = json.loads(js.stdout)
    assert data["ok"] and data["played"] == ["r4"] and data["jokers_played"] == 0
    bad = _cli("solve", "r1 r2 q3", "--rack", "r4")
    assert bad.returncode == 1 and "unknown colour" in bad.stderr and "Traceback" not in bad.stderr
    badj = _cli("solve", "r1 r2 q3", "--rack", "r4", "--json")
    assert badj.returncode == 1 and json.loads(badj.stdout)["ok"] is False
    usage = _cli("solve", "r1 r2 r3", "--rack", "r4", "--objective", "nope", "--json")
    assert usage.returncode == 2 and usage.stdout == "" and "invalid choice" in usage.stderr
    strict = _cli("solve", "r7 b7 o7 J", "--rack", "k1 k2")
    assert strict.returncode == 0 and "no move" in strict.stdout
    free = _cli("solve", "r7 b7 o7 J", "--rack", "k1 k2", "--joker-retrieval", "free")
    assert free.returncode == 0 and "k1 k2 J" in free.stdout


def test_cli_simulate_json() -> None:
    out = _cli("simulate", "--games", "2", "--players", "greedy,holdback", "--seed", "3", "--json")
    data = json.loads(out.stdout)
    assert out.returncode == 0 and data["games"] == 2 and {r["ai"] for r in data["summary"]} == {"greedy", "holdback"}


def test_engine_commands() -> None:
    from kubasolve.engine.registry import Session
    from kubasolve.engine.server import handle_request

    s = Session()

    def ask(cmd: str, **params):  # type: ignore[no-untyped-def]
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), s)

    solved = ask("rummikub.solve", table="r1 r2 r3", rack="r4 b9")
    assert solved["ok"] and solved["result"]["played"] == ["r4"]
    strict = ask("rummikub.solve", table="r7 b7 o7 J", rack="k1 k2")
    free = ask("rummikub.solve", table="r7 b7 o7 J", rack="k1 k2", rules={"joker_retrieval": "free"})
    assert not strict["result"]["found"] and free["result"]["played"] == ["k1", "k2"]
    new = ask("rummikub.new-game", players=["ann", "bob"], seed=2)
    gid = new["result"]["game"]
    bad = ask("rummikub.apply-move", game=gid, move={"type": "play", "table": [["r1"]]})
    assert not bad["ok"] and bad["error"]["code"] == "illegal-move"
    moved = ask("rummikub.ai-move", game=gid, ai="greedy")
    assert moved["ok"] and moved["result"]["state"]["turn"] == 1
    hint = ask("rummikub.solve", game=gid)
    assert hint["ok"] and "found" in hint["result"]
    state = ask("rummikub.state", game=gid)["result"]["state"]
    loaded = ask("rummikub.load-game", state=state)
    assert loaded["ok"] and loaded["result"]["state"]["racks"] == state["racks"]
    assert ask("rummikub.state", game="nope")["error"]["code"] == "unknown-game"


def test_cli_reads_a_rules_variant(tmp_path) -> None:  # type: ignore[no-untyped-def]
    variant = tmp_path / "small.toml"
    variant.write_text("numbers = 9\ncolours = 3\nmin_first_meld = 12\n")
    out = _cli("solve", "--rack", "r1 r2 r3 o4 o5 o6", "--first-meld", "--rules", str(variant), "--json")
    assert json.loads(out.stdout)["played"] == ["r1", "r2", "r3", "o4", "o5", "o6"]
    bad = _cli("solve", "--rack", "r10", "--rules", str(variant))
    assert bad.returncode == 1 and "numbers go from 1 to 9" in bad.stderr


def test_importing_the_api_compiles_nothing() -> None:
    code = "import sys, kubasolve.games.rummikub, kubasolve.games.rummikub.ai; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False"


def test_joker_is_taken_only_by_replacing_it_with_its_tile() -> None:
    """Rule: "A joker on the table may be taken by replacing it with the tile it stands for, and must be played again the same turn"."""
    g = _game_with(["k1 k2 k7 b1", "o1 o2 o3"], table="r7 b7 o7 J")
    g.melded[0] = True
    before = g.to_dict()
    with pytest.raises(IllegalMoveError, match="strict joker retrieval"):
        g.apply({"type": "play", "table": [["r7", "b7", "o7"], ["k1", "k2", "J"]]})
    assert g.to_dict() == before
    # the joker must be played again: it may not stay off the table
    with pytest.raises(IllegalMoveError, match="would leave the table"):
        g.apply({"type": "play", "table": [["r7", "b7", "o7", "k7"]]})
    assert g.to_dict() == before
    g.apply({"type": "play", "table": [["r7", "b7", "o7", "k7"], ["k1", "k2", "J"]]})
    assert g.racks[0] == parse_tiles("b1", R) and len(g.table) == 2


def test_free_joker_retrieval_variant_lets_table_jokers_move() -> None:
    free = RummikubRules(joker_retrieval="free")
    g = RummikubGame.new(2, seed=0, rules=free)
    g.racks = [sorted(parse_tiles("k1 k2 b1", free)), sorted(parse_tiles("o1 o2 o3", free))]
    from kubasolve.games.rummikub import parse_table

    g.table = parse_table("r7 b7 o7 J", free)
    g.melded[0] = True
    g.apply({"type": "play", "table": [["r7", "b7", "o7"], ["k1", "k2", "J"]]})
    assert g.racks[0] == parse_tiles("b1", free)


def _saved() -> dict:  # type: ignore[type-arg]
    g = RummikubGame.new(2, seed=11)
    play_game(g, ["greedy", "greedy"], max_turns=12)
    return json.loads(json.dumps(g.to_dict()))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(seed="11"), "seed must be an integer"),
        (lambda d: d.update(seed=11.9), "seed must be an integer"),
        (lambda d: d.update(seed=True), "seed must be an integer"),
        (lambda d: d.update(players=["p"] * 1_000_000), "2 to 8"),
        (lambda d: d.update(moves=[{"type": "draw"}] * 1_000_000), "at most 20000 moves"),
        (lambda d: d.update(seed="3" * 1_000_000), "seed must be an integer"),
        (lambda d: d.update(seed=10**5000), "seed must be an integer"),
        (lambda d: d.update(cheat=1), "unknown key"),
        (lambda d: d["racks"][0].append("J"), "racks is"),
        (lambda d: d.update(table=[]), "table is"),
        (lambda d: d.update(scores=[5, -5]), "scores is"),
        (lambda d: d.update(pool_size=d["pool_size"] - 1), "pool_size is"),
        (lambda d: d.update(melded=[int(m) for m in d["melded"]]), "melded is"),
        (lambda d: d.update(turn=float(d["turn"])), "turn is"),
        (lambda d: d.update(rules={"players": 100_000_000}), "unknown Rummikub rule"),
        (lambda d: d.update(rules={"tiles_dealt": 2**70}), "more than the"),
        (lambda d: d.update(rules={"jokers": 1.0}), "jokers must be int"),
    ],
)
def test_saved_game_loader_is_strict(edit, message) -> None:  # type: ignore[no-untyped-def]
    """load-game replays from the seed: any key that disagrees with the replay, a non-integer seed or an
    oversized count is refused with the reason (and nothing big is built first)."""
    import time

    from kubasolve.errors import KubasolveError

    data = _saved()
    assert RummikubGame.from_dict(data).to_dict() == data
    edit(data)
    t0 = time.perf_counter()
    with pytest.raises(KubasolveError, match=message):
        RummikubGame.from_dict(data)
    assert time.perf_counter() - t0 < 2.0


def test_new_game_refuses_huge_player_counts_instantly() -> None:
    for n in (100_000_000, 2**70, True, 2.0):
        with pytest.raises(PositionError, match="2 to 8 players"):
            RummikubGame.new(n)  # type: ignore[arg-type]


def test_has_legal_play_before_the_first_meld_equals_the_exact_first_meld_search() -> None:
    """has_legal_play settles most first melds with a search for the most points (jokers counting 0), cheaper than the
    first-meld search; it must answer exactly what that search answers (random racks, minimums and joker counts)."""
    import random

    rng = random.Random(23)
    checked = 0
    for _ in range(60):
        rules = RummikubRules.from_dict({"min_first_meld": rng.choice([1, 10, 30, 60, 100, 200]), "jokers": rng.choice([0, 1, 2]),
                                         "min_set_size": rng.choice([2, 3, 4])})
        game = RummikubGame.new(2, rng.randrange(10**6), rules)
        box = game.pool + game.racks[1]
        game.racks[0] = sorted(rng.sample(box, rng.randint(1, 30)))
        exact = solve([], game.racks[0], rules, first_meld=True).found
        assert game.has_legal_play(0) == exact, (rules, game.racks[0])
        checked += exact
    assert 10 < checked < 50  # both answers occur
