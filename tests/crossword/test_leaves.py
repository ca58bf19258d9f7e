"""Learnt leave tables (kubasolve.games.crossword.leaves / crossword_learn): the table format and its fallback,
the vectorised valuation of every option against the slow per-move reference, the sub-leave tally
against a brute-force count, the smoothing, and a small learning run end to end (CLI included)."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.errors import RulesError
from kubasolve.games.crossword.ai import EquityPolicy, LeaveTable, ScorePolicy, equity_candidates, fast_candidates, load_leaves
from kubasolve.games.crossword.data.make_leaves import features
from kubasolve.games.crossword.game import Referee, play_game, take_from_rack
from kubasolve.games.crossword.learn import PRIORS, fit_table, heldout_errors, leave_features, leave_stats, play_learning_game, table_digest
from kubasolve.games.crossword.leaves import LearntLeaves, fallback_value, load_learnt_leaves, rack_leave_values, sub_racks
from kubasolve.scale.learn import learn_leaves


@pytest.fixture(scope="module")
def referee(nl_lexicon) -> Referee:  # type: ignore[no-untyped-def]
    return Referee(nl_lexicon)


@pytest.fixture(scope="module")
def positions(referee):  # type: ignore[no-untyped-def]
    """Every second state of a score-vs-score game while the bag holds tiles."""
    rec = play_game([ScorePolicy(), ScorePolicy()], 33, referee)
    state, out = referee.new_game(33, 2), []
    for k, (_, action) in enumerate(rec.actions):
        if state.bag and k % 2 == 0:
            out.append(state)
        state = referee.apply(state, action)
    return out


def small_table() -> LearntLeaves:
    keys = np.array([b"?", b"E", b"Q", b"QU", b"U", b"EE"])
    return LearntLeaves(keys, np.array([20.0, 2.0, -8.0, -1.0, -2.0, 1.0]), {"note": "test"})


# ------------------------------------------------------------------------------------------------ the table
@settings(max_examples=60, deadline=None)
@given(st.sets(st.text("ABEQUZ?", min_size=0, max_size=6), min_size=1, max_size=40),
       st.lists(st.text("ABEQUZ?", min_size=0, max_size=7), max_size=30))
def test_packed_lookup_finds_exactly_the_stored_leaves(stored, asked):
    """The int64 packed keys answer as a plain dict over the byte-string keys (every stored leave, and leaves it
    does not hold: other lengths, other tiles)."""
    from kubasolve.games.crossword.leaves import canonical

    keys = sorted({canonical(k) for k in stored})
    values = np.arange(len(keys), dtype=np.float32) - 7
    table = LearntLeaves(np.array([k.encode() for k in keys], dtype=f"S{max(1, *map(len, keys))}"), values)
    reference = dict(zip(keys, values.tolist(), strict=True))
    for leave in [*keys, *(canonical(a) for a in asked)]:
        assert table.stored(leave) == reference.get(leave)


def test_packed_keys_refuse_what_they_cannot_hold():
    from kubasolve.games.crossword.leaves import pack_key, pack_keys

    assert pack_key("") == 0 and pack_key("?") == 1 and pack_key("A") == 3 and pack_key("AB") == 3 * 32 + 4
    assert pack_key("a") == pack_key("A" * 13) == pack_key("É") == -1  # no table holds them
    assert small_table().stored("e") is None
    with pytest.raises(RulesError):
        pack_keys(np.array([b"A1"]))
    with pytest.raises(RulesError):
        pack_keys(np.array([b"A" * 13]))


def test_table_looks_up_stored_leaves_in_any_order_and_falls_back_to_sub_leaves():
    t = small_table()
    assert t.value("") == 0.0
    assert t.value("UQ") == t.value("QU") == pytest.approx(-1.0)  # stored: the Q rescued by the U
    assert t.value("Q") + t.value("U") == pytest.approx(-10.0)  # far worse than the stored pair
    # not stored: mean over its distinct tiles t of value(leave - t) + value(t)
    assert t.value("E?") == pytest.approx(22.0)
    assert t.value("EQU") == pytest.approx(((-1.0 + 2.0) + (0.0 - 8.0) + (-6.0 - 2.0)) / 3)  # via QU+E, EU+Q, EQ+U
    assert t.value("EQ") == pytest.approx(-6.0)
    assert t.value("X") == 0.0  # an unknown single tile is worth nothing
    assert fallback_value("EE", t.value) == pytest.approx(4.0)  # what the stored 1.0 overrides


def test_table_round_trips_through_npz(tmp_path):
    t = small_table()
    path = tmp_path / "t.npz"
    size = t.save(path)
    assert size == path.stat().st_size < 2000
    back = LearntLeaves.from_npz(path)
    assert back.keys.tolist() == t.keys.tolist() and back.values.tolist() == t.values.tolist()
    assert back.info == {"note": "test"} and table_digest(back) == table_digest(t)
    odd = LearntLeaves(np.array([b"A"]), np.array([0.1]))  # not a float16: kept as float32, exactly
    assert LearntLeaves.from_npz(odd.to_npz()).values.tolist() == odd.values.tolist() != [float(np.float16(0.1))]
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(RulesError, match="not a crossword leave table"):
        LearntLeaves.from_npz(tmp_path / "bad.npz")
    # a zip header and no archive raised zipfile.BadZipFile (a traceback in the CLI); the others named no file and
    # passed on numpy's advice on loading pickled data
    (tmp_path / "broken.npz").write_bytes(b"PK\x03\x04" + bytes(range(60)))
    (tmp_path / "other.npz").write_bytes(t.to_npz().replace(b"keys", b"kezs"))
    for name, reason in (("broken.npz", "not an .npz archive"), ("bad.npz", "not an .npz archive"), ("other.npz", "without 'keys'")):
        with pytest.raises(RulesError, match=f"{name} is not a crossword leave table .*{reason}") as caught:
            LearntLeaves.from_npz(tmp_path / name)
        assert "pickle" not in str(caught.value)
    with pytest.raises(RulesError, match="same leave twice"):
        LearntLeaves(np.array([b"E", b"E"]), np.array([1.0, 2.0]))


def test_sub_racks_and_rack_leave_values_cover_every_split():
    rack = "EEQ?"
    subs = sub_racks(rack)
    assert len(subs) == len(set(subs)) == 3 * 2 * 2 and "" in subs and "EEQ?" in subs
    t = small_table()
    rl = rack_leave_values(t, rack)
    assert sorted(rl.leaves) == sorted(subs)
    for key, kept in enumerate(rl.leaves):
        # the played tiles of this key, by the mixed radix, plus the kept tiles make the rack
        played = "".join(k * ((key // int(w)) % (Counter(rack)[k] + 1)) for k, w in zip(rl.kinds, rl.weights, strict=True))
        assert Counter(played) + Counter(kept) == Counter(rack)
        assert rl.values[key] == pytest.approx(t.value(kept))


def test_fast_candidates_equal_the_per_move_reference(referee, positions):
    leaves = load_leaves("nl")
    for state in positions[::3]:
        slow = equity_candidates(referee, state, leaves)
        fast = fast_candidates(referee, state, leaves, top=None)
        assert len(slow) == len(fast)
        assert [round(c.equity, 6) for c in slow] == [round(c.equity, 6) for c in fast]
        assert fast[0].equity == pytest.approx(slow[0].equity)
        for c in fast[:20]:
            played = "".join(ch for _, _, ch in c.action.tiles) if c.action.type == "place" else c.action.letters
            assert c.leave == take_from_rack(state.rack(), played)
            assert c.equity == pytest.approx(c.score + leaves.value(c.leave))
    short = replace(positions[1], bag=positions[1].bag[:6])
    assert not any(c.action.type == "exchange" for c in fast_candidates(referee, short, leaves, top=None))


def test_equity2_exchanges_a_rack_its_leaves_call_terrible(referee, positions):
    from kubasolve.games.crossword.sim import Equity2Policy

    state = positions[1]
    bad = replace(state, racks=tuple("QQQQQQQ" if p == state.current else r for p, r in enumerate(state.racks)))
    table = LearntLeaves(np.array([b"Q"]), np.array([-20.0]))
    assert Equity2Policy(leaves=table).turn(referee, bad).type == "exchange"
    assert EquityPolicy(leaves=LeaveTable({"Q": -20.0})).turn(referee, bad).type == "exchange"


# ------------------------------------------------------------------------------------------------ learning
@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.text("ABC?", min_size=4, max_size=4), st.integers(-50, 50)), min_size=1, max_size=12))
def test_leave_stats_count_every_distinct_sub_leave_once_per_rack(data):
    racks = ["".join(sorted(r, key=lambda ch: (ch == "?", ch))) for r, _ in data]
    values = [float(v) for _, v in data]
    stats = leave_stats(racks, values, "ABC?")
    want: dict[str, list[float]] = {}
    for rack, v in zip(racks, values, strict=True):
        for sub in sub_racks(rack):
            if len(sub) < len(rack):
                want.setdefault(sub, []).append(v)
    got = {stats.leave(int(k)): (int(n), float(s), float(q)) for k, n, s, q in zip(stats.keys, stats.n, stats.total, stats.squares, strict=True)}
    assert set(got) == set(want)
    for leave, vs in want.items():
        assert got[leave] == (len(vs), pytest.approx(sum(vs)), pytest.approx(sum(v * v for v in vs)))


def test_fit_values_leaves_by_the_racks_that_hold_them_and_shrinks_rare_ones():
    rng = np.random.default_rng(5)
    racks, values = [], []
    for _ in range(4000):  # A helps, B hurts, AB together less so; noise sd 5
        rack = "".join(sorted(rng.choice(list("ABCC"), 3)))
        racks.append(rack)
        values.append(30.0 + 10.0 * ("A" in rack) - 10.0 * ("B" in rack) + 5.0 * ("A" in rack and "B" in rack) + float(rng.normal(0, 5)))
    racks += ["ACD", "BCD"]  # a tile seen twice, in racks worth +60
    values += [90.0, 90.0]
    v = np.array(values)
    stats = leave_stats(racks, values, "ABCD")
    table, report = fit_table(stats, prune=0.0, k_scale=1.0)  # the empirical-Bayes constant as estimated
    assert report["racks"] == 4002
    for leave in ("A", "B", "C", "AB", "AC", "CC"):  # well sampled: the mean of the racks holding it minus the mean
        holds = np.array([Counter(leave) <= Counter(r) for r in racks])
        assert holds.sum() > 300
        assert table.value(leave) == pytest.approx(v[holds].mean() - v.mean(), abs=0.05)
    raw_d = 90.0 - v.mean()
    assert 0 < table.value("D") < raw_d / 2  # two racks: shrunk toward 0 (a single tile's prior)
    prior_cd = fallback_value("CD", table.value)
    assert prior_cd < table.value("CD") < prior_cd + (90.0 - v.mean())  # toward its sub-leaves' estimate
    pruned, _ = fit_table(stats, prune=1.0)
    assert len(pruned) < len(table)
    for key in stats.keys[1:]:
        leave = stats.leave(int(key))
        stored = pruned.stored(leave)
        # a leave is stored only when its value is 1 point or more away from what the fallback would give
        assert stored is None or len(leave) == 1 or abs(stored - fallback_value(leave, pruned.value)) >= 1.0 - 1e-4


def test_leave_features_decode_the_packed_keys_as_the_linear_models_features():
    rng = np.random.default_rng(3)
    order = "AEKST?"
    racks = ["".join(sorted(rng.choice(list(order), 5), key=lambda ch: (ch == "?", ch))) for _ in range(60)]
    stats = leave_stats(racks, [1.0] * len(racks), order)
    x = leave_features(stats)
    letters = list(order)
    for row, key in zip(x, stats.keys, strict=True):
        leave = stats.leave(int(key))
        sizes = [float(len(leave) == s) for s in range(1, x.shape[1] - len(letters) - 1)]
        assert row.tolist() == features(leave, letters) + sizes  # counts, repeats, balance, then the size


@pytest.mark.parametrize("prior", PRIORS)
def test_every_prior_keeps_well_sampled_leaves_and_pulls_rare_ones_toward_it(prior):
    rng = np.random.default_rng(9)
    racks, values = [], []
    for _ in range(3000):  # additive: A +8, B -6, C 0, D +3; noise sd 6
        rack = "".join(sorted(rng.choice(list("ABCD"), 4, p=[0.3, 0.3, 0.35, 0.05])))
        racks.append(rack)
        values.append(20.0 + sum({"A": 8.0, "B": -6.0, "C": 0.0, "D": 3.0}[t] for t in rack) + float(rng.normal(0, 6)))
    racks.append("DDDD")  # one rack, far off the additive value
    values.append(200.0)
    stats = leave_stats(racks, values, "ABCD")
    v = np.array(values)
    table, report = fit_table(stats, prune=0.0, prior=prior)
    assert report["prior"] == prior
    holds = np.array(["A" in r for r in racks])
    assert table.value("A") == pytest.approx(v[holds].mean() - v.mean(), abs=0.3)
    raw = 200.0 - v.mean()
    assert table.value("DDD") < raw / 2  # seen once: most of the way to the prior
    sharp, _ = fit_table(stats, prune=0.0, prior=prior, k_scale=0.01)
    assert table.value("DDD") < sharp.value("DDD") < raw  # less shrinkage, nearer its own mean
    with pytest.raises(RulesError, match="prior"):
        fit_table(stats, prior="nope")


def test_heldout_check_fits_a_term_per_tile_kept_beside_each_model():
    from kubasolve.games.crossword.learn import GameSamples

    rng = np.random.default_rng(4)

    def samples(n: int) -> GameSamples:  # the next score: 30 - 3 per tile kept + 5 per A kept, noise sd 2
        kept = ["".join(sorted(rng.choice(list("ABC"), int(rng.integers(0, 7))))) for _ in range(n)]
        scores = [round(30 - 3 * len(k) + 5 * k.count("A") + rng.normal(0, 2)) for k in kept]
        return GameSamples(kept=kept, next_scores=scores, next_values=[0.0] * n, next2_scores=[math.nan] * n, games=1)

    train, test = samples(3000), samples(1000)
    only_a = LearntLeaves(np.array([b"A"]), np.array([1.0]))  # knows the A, not the tiles kept
    rows = heldout_errors(train, test, {"none": None, "a": only_a}, "ABC")["next_score"]
    assert rows["a"]["rmse_sized"] < 2.2 < rows["a"]["rmse"]  # the size term explains the rest
    assert rows["a"]["c"] == pytest.approx(-3.0, abs=0.2)
    assert rows["none"]["rmse_sized"] < rows["none"]["rmse"]
    # the refitted linear model has a value per tile: the term adds next to nothing
    assert rows["linear-refit"]["rmse"] < 2.2
    assert rows["linear-refit"]["rmse_sized"] == pytest.approx(rows["linear-refit"]["rmse"], abs=0.01)


def test_learning_games_record_full_racks_and_their_best_equity(referee):
    leaves = load_leaves("nl")
    s = play_learning_game(referee, leaves, 7)
    assert s.games == 1 and len(s.racks) == len(s.values) > 5 and len(s.kept) == len(s.next_scores)
    assert all(len(r) == 7 for r in s.racks)
    assert all(len(k) < 7 for k in s.kept)
    assert all(math.isfinite(v) for v in s.values)


def test_learn_leaves_is_seeded_and_the_same_on_two_workers(tmp_path):
    a, rep_a = learn_leaves([4], seed=3, held_out=2, workers=1)
    b, _rep_b = learn_leaves([4], seed=3, held_out=2, workers=2)
    assert table_digest(a) == table_digest(b) and len(a) > 27
    r = rep_a[0]
    assert r["games"] == 4 and r["racks"] > 20 and r["held_out"]["next_score"]["test_pairs"] > 0
    assert {"none", "linear", "learnt", "linear-refit"} <= set(r["held_out"]["next_score"])
    _c, rep_c = learn_leaves([3, 3], seed=3, start="none", held_out=0)
    assert [g["played_with"] for g in rep_c] == ["no leaves", "learnt table"]


def test_learn_leaves_cli(tmp_path, capsys):
    from kubasolve.cli.main import main

    out = tmp_path / "leaves.npz"
    assert main(["crossword", "learn-leaves", "--games", "3", "--held-out", "1", "--seed", "2", "-o", str(out), "--json",
                 "--samples", str(tmp_path / "s")]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] and payload["bytes"] == out.stat().st_size and payload["leaves"] == len(LearntLeaves.from_npz(out))
    assert (tmp_path / "s-g1.npz").is_file()
    refit = tmp_path / "refit.npz"  # the saved samples give the run's own table again, without playing
    assert main(["crossword", "learn-leaves", "--refit", str(tmp_path / "s-g1.npz"), "--output", str(refit), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert table_digest(LearntLeaves.from_npz(refit)) == table_digest(LearntLeaves.from_npz(out))
    assert again["generations"][0]["held_out"]["next_score"] == payload["generations"][0]["held_out"]["next_score"]
    assert main(["crossword", "learn-leaves", "--out", str(refit)]) == 2  # neither --games nor --refit (--out: the older -o)
    assert main(["crossword", "learn-leaves", "--games", "3"]) == 2  # no table to write
    assert "-o/--output FILE" in capsys.readouterr().err
    assert main(["crossword", "learn-leaves", "--games", "3", "--out", str(out), "--start", "nope.npz"]) == 2
    assert main(["crossword", "learn-leaves", "--games", "3", "--out", str(tmp_path / "no" / "x.npz")]) == 1


# ------------------------------------------------------------------------------------------------ equity2, sim2, pre-endgame
@pytest.fixture(scope="module")
def preendgame_state(referee):  # type: ignore[no-untyped-def]
    """The first state of a score-vs-score game with 1 to 6 tiles in the bag."""
    for seed in range(40, 60):
        state = referee.new_game(seed, 2)
        while not state.over and len(state.bag) >= 7:
            state = referee.apply(state, ScorePolicy().turn(referee, state))
        if not state.over and 0 < len(state.bag) < 7:
            return state
    raise AssertionError("no pre-endgame position")


def test_opponent_deals_enumerate_every_bag_with_its_draw_count_or_sample():
    import random

    from kubasolve.games.crossword.sim import opponent_deals

    unseen = "AABCDEFGH"
    deals = opponent_deals(unseen, 7, 100, random.Random(1))
    assert sum(w for _, _, w in deals) == math.comb(9, 2)  # every way to leave 2 of the 9 tiles in the bag
    bags = {"".join(sorted(b)): w for _, b, w in deals}
    assert len(bags) == len(deals) == 29  # 8 kinds: AA, 7 bags with one A, 21 without
    for opp, bag, _ in deals:
        assert len(opp) == 7 and len(bag) == 2 and Counter(opp) + Counter(bag) == Counter(unseen)
    assert bags["AA"] == 1 and bags["AB"] == 2 and bags["BC"] == 1
    sampled = opponent_deals(unseen, 7, 5, random.Random(1))
    assert len(sampled) == 5 and all(w == 1 for _, _, w in sampled)


def test_preendgame_plays_out_every_candidate_and_equity2_uses_it(referee, preendgame_state):
    from kubasolve.games.crossword.sim import Equity2Policy, preendgame_choice

    leaves = load_leaves("nl")
    action, scored = preendgame_choice(referee, preendgame_state, leaves, deals=4, nodes=100)
    assert any(a.type == "pass" for a, _ in scored) and len(scored) >= 3
    assert action == max(scored, key=lambda x: x[1])[0]
    assert (action, scored) == preendgame_choice(referee, preendgame_state, leaves, deals=4, nodes=100)  # seeded
    referee.apply(preendgame_state, action)  # legal
    policy = Equity2Policy(leaves=leaves, preendgame_deals=4, preendgame_nodes=100)
    assert policy.turn(referee, preendgame_state) == action
    assert Equity2Policy(leaves=leaves, preendgame=False).turn(referee, preendgame_state) == fast_candidates(referee, preendgame_state, leaves)[0].action


def test_sim2_prunes_clearly_worse_candidates_and_keeps_close_ones():
    from kubasolve.games.crossword.sim import Sim2Policy

    rng = np.random.default_rng(2)
    base = rng.normal(0, 30, 16)  # the shared luck of each iteration (same racks for every candidate)
    samples = [list(base + 10), list(base + 9.5 + rng.normal(0, 1, 16)), list(base - 5 + rng.normal(0, 1, 16))]
    assert Sim2Policy(prune_z=2.5)._prune([0, 1, 2], samples, 16) == [0, 1]


def test_win_chance_is_a_normal_model_of_the_rest_of_the_game():
    from kubasolve.games.crossword.sim import WIN_SIGMA_MIN, win_chance

    assert win_chance(0, 60) == 0.5 and win_chance(40, 60) + win_chance(-40, 60) == pytest.approx(1.0)
    assert win_chance(10, 60) < win_chance(20, 60) < win_chance(20, 20)  # a lead counts more with fewer tiles left
    assert win_chance(30, 0) == win_chance(30, 4) == pytest.approx(0.8413, abs=1e-4)  # one sigma: the floor
    assert WIN_SIGMA_MIN == 30.0


def _scripted_sim(monkeypatch, referee, state, values, lead, objective):  # type: ignore[no-untyped-def]
    """sim2 over the first two candidates of ``state`` with the mover ``lead`` points ahead, where the opponent's
    reply is scripted so that iteration ``k`` of candidate ``i`` is worth ``values[i][k % len(values[i])]``."""
    from kubasolve.games.crossword import sim

    leaves = load_leaves("nl")
    cands = fast_candidates(referee, state, leaves, top=2)
    calls = []

    def scripted(referee_, board, rack, leaves_, bag_size):  # type: ignore[no-untyped-def]
        i, k = len(calls) % 2, len(calls) // 2
        calls.append(1)
        equity = cands[i].score + leaves.value(cands[i].leave) - values[i][k % len(values[i])]
        return equity, 0, None, rack

    monkeypatch.setattr(sim, "best_option", scripted)
    scores = (state.scores[0] + lead, state.scores[1]) if state.current == 0 else (state.scores[0], state.scores[1] + lead)
    policy = sim.Sim2Policy(objective=objective, iterations=40, prune_z=1e9)
    return policy.simulate(referee, replace(state, scores=scores), cands, leaves), policy.last_stats


def test_sim2_win_objective_takes_risks_behind_and_falls_back_to_spread(monkeypatch, referee, positions):
    """A steady +10 against a gamble of +40 / -40: the spread objective takes the steady play; the win objective
    too when the game is even, but 100 points behind it gambles (only a big swing can win); with the game decided
    either way (500 points) the win chances are all but equal and the spread breaks the tie."""
    state = positions[2]
    steady, gamble = [10.0], [40.0, -40.0]
    for lead, objective, pick in [(0, "spread", 0), (0, "win", 0), (-100, "spread", 0), (-100, "win", 1),
                                  (500, "win", 0), (-500, "win", 0)]:
        values, stats = _scripted_sim(monkeypatch, referee, state, [steady, gamble], lead, objective)
        assert int(np.argmax(values)) == pick, (lead, objective, values)
        assert stats["spread"] == pytest.approx([10.0, 0.0]) and stats["iterations"] == 40
    with pytest.raises(RulesError):
        _scripted_sim(monkeypatch, referee, state, [steady, gamble], 0, "score")


def test_equity2_linear_plays_the_linear_tables_best_equity(referee, positions):
    """``equity2:linear`` is equity2 with the linear leave table (to measure what the learnt one adds)."""
    from kubasolve.games.crossword.ai import make_policy
    from kubasolve.games.crossword.sim import default_leaves

    linear, learnt = load_leaves("nl"), load_learnt_leaves("nl")
    assert default_leaves(referee, "linear").value("QU?") == linear.value("QU?")
    assert default_leaves(referee) is learnt and default_leaves(referee, "linear") is default_leaves(referee, "linear")
    policy = make_policy("equity2:linear:500")
    assert policy.leave_table == "linear" and policy.endgame_nodes == 500 and make_policy("sim2:linear").leave_table == "linear"
    differ = 0
    for state in positions[:6]:
        assert policy.turn(referee, state) == fast_candidates(referee, state, linear)[0].action
        differ += make_policy("equity2").turn(referee, state) != policy.turn(referee, state)
    assert differ > 0  # the two tables do not always agree
    with pytest.raises(RulesError):
        default_leaves(referee, "cubic")
    with pytest.raises(RulesError):
        make_policy("equity:linear")


def test_sim2_is_seeded_legal_and_honours_its_budgets(referee, positions):
    from kubasolve.games.crossword.ai import make_policy

    leaves = load_leaves("nl")
    state = positions[4]
    a = make_policy("sim2", 5, leaves=leaves, iterations=10, candidates=5)
    b = make_policy("sim2", 5, leaves=leaves, iterations=10, candidates=5)
    assert a.turn(referee, state) == b.turn(referee, state)
    referee.apply(state, a.turn(referee, state))
    assert 1 <= a.last_stats["iterations"] <= 10 and 1 <= a.last_stats["left"] <= 5
    quick = make_policy("sim2", 5, leaves=leaves, iterations=10, candidates=5, time_limit=1e-9)
    quick_move = quick.turn(referee, state)
    # no iteration fits a 1 ns budget: none starts, and the candidate best by equity is played (docs/crossword.md
    # "Budgets"; before budgets were read ahead, one iteration ran over the budget)
    assert quick.last_stats["iterations"] == 0 and quick.cut
    referee.apply(state, quick_move)
    assert make_policy("equity2:700").endgame_nodes == 700 and make_policy("sim2:bounded").endgame_mode == "bounded"
    assert make_policy("sim2:100ms").movetime_ms == 100.0 and make_policy("equity:250ms").movetime_ms == 250.0
    assert make_policy("sim2").objective == "win" and make_policy("sim2:spread:400ms").objective == "spread"
    assert make_policy("sim2:spread:400ms").movetime_ms == 400.0 and make_policy("sim2:win:500").endgame_nodes == 500
    assert make_policy("sim2").plies == 2 and make_policy("sim2:3ply:400ms").plies == 3
    for bad in ("sim2:0ms", "sim2:fastms", "score:100ms", "equity2:win", "sim:spread", "sim2:win:spread", "sim2:100ms:200ms", "equity2:3ply", "sim2:2ply:3ply", "sim2:4ply"):
        with pytest.raises(RulesError):
            make_policy(bad)


def test_ladder_stats_count_wins_spreads_and_exchanges(tmp_path, capsys):
    from kubasolve.games.crossword.ladder import ladder_stats, main

    recs = [{"seats": ["a", "b"], "scores": [400, 350], "winners": [0], "actions": [[0, {"type": "exchange"}], [1, {"type": "pass"}], [0, {"type": "place"}]]},
            {"seats": ["b", "a"], "scores": [300, 300], "winners": [0, 1], "actions": [[0, {"type": "place"}], [1, {"type": "place"}]]},
            {"seats": ["b", "a"], "scores": [420, 380], "winners": [0], "actions": [[1, {"type": "exchange"}]]}]
    s = ladder_stats(recs)
    assert s["a"]["wins"] == 1.5 and s["b"]["wins"] == 1.5 and s["a"]["games"] == 3
    assert s["a"]["spread"] == pytest.approx((50 + 0 - 40) / 3) and s["b"]["spread"] == pytest.approx(-s["a"]["spread"])
    assert s["a"]["spread_low"] < s["a"]["spread"] < s["a"]["spread_high"]
    assert (s["a"]["exchanges"], s["a"]["turns"], s["b"]["exchanges"], s["b"]["turns"]) == (2, 4, 0, 2)
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    assert main([str(path)]) == 0 and "exchanges 2/4 (50.00%)" in capsys.readouterr().out


@pytest.mark.parametrize("tiles", ["nl", "en"])
def test_shipped_learnt_tables_are_sane(tiles):
    """The shipped tables: learnt from thousands of games, sorted keys of at most 6 tiles, and the values a
    player expects (a blank is worth a lot, two more, the Q hurts, repeated tiles hurt more than their parts)."""
    table = load_learnt_leaves(tiles)
    info = table.info
    assert info["tiles"] == tiles and info["games"] >= 2_000 and info["racks"] > 40_000
    assert len(table) > 100_000 and bool(np.all(table.keys[1:] > table.keys[:-1]))
    assert max(len(k) for k in table.keys.tolist()) <= 6
    v = table.value
    assert v("??") > v("?") > 10 > v("S") > 0 > v("Q")
    assert v("EE") < 2 * v("E") + 1 and v("EEE") < v("EE")
    if tiles == "en":
        assert v("QU") > v("Q") + v("U")  # the U rescues the Q


def test_learnt_leaves_doc_example_runs(capsys):
    """The Python example of docs/crossword.md's "Learnt leaves" section, as written."""
    import re

    from kubasolve.cli.docs import docs_dir

    text = (docs_dir() / "crossword.md").read_text(encoding="utf-8")
    section = text.split("### Learnt leaves", 1)[1].split("\n### ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    exec(compile(code, "docs/crossword.md", "exec"), {"__name__": "__doc_example__"})
    out = capsys.readouterr().out.split()
    assert int(out[0]) == len(load_learnt_leaves("nl")) and float(out[2]) > 10


def test_leaves_ladder_script_plays_each_deal_both_ways(tmp_path):
    """benchmarks/crossword_leaves_ladder.py (the ladder of two leave tables): each deal is played twice with the
    seats swapped, and the summary counts both tables' games."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "crossword_leaves_ladder.py"
    records = tmp_path / "games.jsonl"
    out = subprocess.run([sys.executable, str(script), "linear", "--deals", "1", "--seed", "3", "--records", str(records), "--json"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    summary = json.loads(out.stdout)
    assert summary["games"] == 2 and summary["A"]["games"] == summary["B"]["games"] == 2
    assert summary["A"]["wins"] + summary["B"]["wins"] == 2
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert [r["seats"] for r in recs] == [["A", "B"], ["B", "A"]] and {r["seed"] for r in recs} == {3}


def test_leaves_ladder_script_takes_the_english_tiles():
    """``--tiles en``: the English tile set and lexicon, and ``shipped`` / ``linear`` name that tile set's tables."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "crossword_leaves_ladder.py"
    spec = importlib.util.spec_from_file_location("crossword_leaves_ladder", path)
    assert spec is not None and spec.loader is not None
    ladder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ladder)
    assert ladder._leaves("shipped", "en").info["tiles"] == "en"
    assert ladder._leaves("shipped", "nl").info["tiles"] == "nl"
    en, nl = ladder._referee("en", "en"), ladder._referee("nl", "nl")
    assert en.tiles.name == "en" and nl.tiles.name == "nl" and en.lexicon.name != nl.lexicon.name
    with pytest.raises(SystemExit) as exit_info:  # an unknown lexicon: a usage error before any game
        ladder.main(["linear", "--lexicon", "nosuch", "--deals", "1"])
    assert exit_info.value.code == 2


def test_ladder_stats_of_paired_records_give_intervals_over_deals():
    """Records of ``simulate --paired`` (two games per seed): the paired intervals are the normal 95% intervals of
    the per-deal means, computed here by hand; records without pairs get none."""
    from kubasolve.games.crossword.ladder import ladder_stats

    games = [(1, 400, 350, [0]), (1, 380, 390, [1]), (2, 300, 300, [0, 1]), (2, 410, 300, [0]), (3, 200, 260, [1]), (3, 330, 320, [0])]
    recs = [{"seed": seed, "seats": ["a", "b"] if k % 2 == 0 else ["b", "a"], "scores": [x, y], "winners": w, "actions": []}
            for k, (seed, x, y, w) in enumerate(games)]
    a = ladder_stats(recs)["a"]
    # a's results per deal: deal 1 won (+50) and won (+10); deal 2 tie (0) and lost (-110); deal 3 lost (-60) and lost (-10)
    win_means, spread_means = [1.0, 0.25, 0.0], [30.0, -55.0, -35.0]
    for key, means in (("win_rate", win_means), ("spread", spread_means)):
        mu = sum(means) / 3
        half = 1.96 * math.sqrt(sum((m - mu) ** 2 for m in means) / 2) / math.sqrt(3)
        assert a[f"paired_{key}_low"] == pytest.approx(mu - half) and a[f"paired_{key}_high"] == pytest.approx(mu + half)
    assert a["deals"] == 3 and a["unpaired"] == 0 and a["win_rate"] == pytest.approx(2.5 / 6)
    assert "deals" not in ladder_stats(recs[:1] + recs[2:3] + recs[4:5])["a"]
    # a ladder stopped early: deal 3 played once; the paired intervals are over deals 1 and 2, its game left out
    early = ladder_stats(recs[:5])["a"]
    assert early["deals"] == 2 and early["unpaired"] == 1 and early["games"] == 5
    mu, half = (1.0 + 0.25) / 2, 1.96 * math.sqrt((1.0 - 0.625) ** 2 + (0.25 - 0.625) ** 2) / math.sqrt(2)
    assert early["paired_win_rate_low"] == pytest.approx(mu - half) and early["paired_win_rate_high"] == pytest.approx(mu + half)


def _ladder_records(pairing=("a", "b"), games=2):
    return [{"game": "crossword", "seed": k // 2, "seats": list(pairing) if k % 2 == 0 else list(pairing[::-1]),
             "scores": [400, 350 + k], "winners": [0], "actions": [[0, {"type": "place"}], [1, {"type": "exchange"}]]}
            for k in range(games)]


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("", "no game records"),
    ("\n  \n", "no game records"),
    ('{"game": "crossword"\n', "line 1 is not JSON"),
    (json.dumps({**_ladder_records()[0], "game": "kubagram"}) + "\n", "'kubagram' game"),
    (json.dumps({**_ladder_records()[0], "seats": ["a", "b", "c"], "scores": [1, 2, 3]}) + "\n", "3 players"),
    (json.dumps({"game": "crossword", "foo": 1}) + "\n", "no seats"),
    ("[1, 2]\n", "not a game record"),
    ("".join(json.dumps(r) + "\n" for r in _ladder_records() + _ladder_records(("a", "c"))), "one pairing of AIs"),
])
def test_ladder_refuses_records_it_cannot_sum_up_by_name(tmp_path, capsys, content, message):
    """The ladder script on a missing file, an empty one, a corrupt line, another game's records, a multi-player
    game, games of two pairings of AIs: exit 1 and a message naming the problem, never a traceback or a silent
    sum (a per-AI sum over different opponents says nothing); with --json the error is JSON on stdout."""
    from kubasolve.games.crossword.ladder import main

    path = tmp_path / "records.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main([str(path)]) == 1
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""
    assert main([str(path), "--json"]) == 1
    error = json.loads(capsys.readouterr().out)
    assert error["ok"] is False and message in error["error"]["message"]


def test_ladder_of_one_game_has_no_interval_and_its_json_is_valid(tmp_path, capsys):
    """One game: no spread interval (null in JSON, said in the text), never an infinity that is not JSON."""
    from kubasolve.games.crossword.ladder import main

    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(_ladder_records(games=1)[0]) + "\n", encoding="utf-8")
    assert main([str(path), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out, parse_constant=lambda name: pytest.fail(f"not JSON: {name}"))
    assert stats["a"]["spread"] == 50 and stats["a"]["spread_low"] is None and stats["b"]["spread_high"] is None
    assert main([str(path)]) == 0 and "(one game: no interval)" in capsys.readouterr().out


def test_learn_leaves_refuses_flags_refit_would_ignore_and_tables_of_other_tiles(tmp_path, capsys):
    """``--refit`` plays no game, so the flags of a run that plays (--games, --generations, --held-out, --workers,
    --backend, --address, --samples) are usage errors with it, not ignored; a --start table learnt for other tiles,
    and samples of games played with other tiles or another lexicon, are refused by name (exit 1), not used."""
    from kubasolve.cli.main import main
    from kubasolve.games.crossword.learn import samples_setting
    from kubasolve.games.crossword.leaves import learnt_leaves_path

    out, samples = tmp_path / "t.npz", tmp_path / "s"
    assert main(["crossword", "learn-leaves", "--games", "2", "--held-out", "1", "--seed", "4", "--out", str(out),
                 "--samples", str(samples), "--json"]) == 0
    capsys.readouterr()
    saved = tmp_path / "s-g1.npz"
    assert samples_setting(saved) == {"tiles": "nl", "lexicon": "nl"}
    refit = ["crossword", "learn-leaves", "--refit", str(saved), "--out", str(tmp_path / "r.npz")]
    for extra in (["--games", "5"], ["--generations", "1"], ["--held-out", "3"], ["--workers", "1"], ["--backend", "local"],
                  ["--samples", str(tmp_path / "again")]):
        assert main([*refit, *extra]) == 2, extra
        assert extra[0] in capsys.readouterr().err
    assert not (tmp_path / "again-g1.npz").exists() and not (tmp_path / "r.npz").exists()
    english = str(learnt_leaves_path("en"))
    for extra, message in ((["--tiles", "en"], "'nl' tiles"), (["--lexicon", "en"], "'nl' lexicon"), (["--start", english], "'en' tiles")):
        assert main([*refit, *extra]) == 1, extra
        assert message in capsys.readouterr().err
    assert main(["crossword", "learn-leaves", "--games", "1", "--held-out", "0", "--out", str(tmp_path / "e.npz"), "--start", english]) == 1
    assert "learnt for the 'en' tiles" in capsys.readouterr().err and not (tmp_path / "e.npz").exists()
    assert main([*refit, "--seed", "4"]) == 0  # the same setting: the run's own table
    assert table_digest(LearntLeaves.from_npz(tmp_path / "r.npz")) == table_digest(LearntLeaves.from_npz(out))


def test_learn_leaves_names_a_start_or_refit_file_that_is_no_npz_archive(tmp_path, capsys):
    """``--start`` / ``--refit`` with a file whose zip header leads nowhere printed a ``zipfile.BadZipFile`` traceback;
    a text file gave numpy's advice on loading pickled data. Now the file is named and said to be no .npz archive:
    exit 1 for the table (a domain error, as a table of other tiles), 2 for ``--refit`` (as before)."""
    from kubasolve.cli.main import main

    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04" + bytes(range(60)))
    text = tmp_path / "notes.npz"
    text.write_text("leaves, maybe\n", encoding="utf-8")
    for bad in (broken, text):
        assert main(["crossword", "learn-leaves", "--games", "1", "--out", str(tmp_path / "t.npz"), "--start", str(bad)]) == 1
        err = capsys.readouterr().err
        assert f"{bad} is not a crossword leave table" in err and "not an .npz archive" in err and "pickle" not in err
        assert main(["crossword", "learn-leaves", "--refit", str(bad), "--out", str(tmp_path / "t.npz")]) == 2
        err = capsys.readouterr().err
        assert "--refit" in err and "not an .npz archive" in err and "Traceback" not in err
    assert not (tmp_path / "t.npz").exists()
