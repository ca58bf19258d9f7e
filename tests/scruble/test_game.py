"""Scruble game: referee refusals (state unchanged), JSON replay, AIs and simulation."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kubasolve.errors import IllegalMoveError, RulesError, StateError
from kubasolve.games.scruble.ai import make_policy
from kubasolve.games.scruble.cube import N_CELLS, parse_twists
from kubasolve.games.scruble.game import ScrubleGame, Turn, play_game, replay_check
from kubasolve.games.scruble.position import apply_twists, placed_new_letter
from kubasolve.games.scruble.report import slid_word_report
from kubasolve.games.scruble.solver import best_words
from kubasolve.lexicon import Lexicon


def test_illegal_turns_are_refused_with_the_reason_and_state_unchanged(en):
    game = ScrubleGame.new(2, seed=4)
    before = json.dumps(game.to_dict())
    cases = [
        (Turn(("X",)), "bad twist notation"),
        (Turn(()), "at least one twist"),
        (Turn(("R", "U", "F", "L")), "at most 3 twists"),
        (Turn(("R",), "qqqzx"), "not a word"),
        (Turn(("R",), "zebra"), "cannot be read"),
    ]
    for turn, reason in cases:
        with pytest.raises(IllegalMoveError, match=reason):
            game.play(turn, en)
        assert json.dumps(game.to_dict()) == before


def test_word_without_new_letter_is_refused(en):
    game = ScrubleGame.new(1, seed=4)
    best = best_words(game.cube, en, game.rules, depth=1, top=1)[0]
    game.play(Turn(tuple(best.notation()), best.word), en)
    # the same word, after a twist that does not touch it, has no new letter
    g = game.rules
    from kubasolve.games.scruble.cube import Twist, geometry

    cells = set(best.cells)
    quiet = next(Twist.from_index(t).notation() for t in range(36)
                 if not any(geometry().twist_changed[t, c] for c in cells))
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn((quiet,), best.word, best.cells), en)
    assert g.max_twists == 3


def test_solver_moves_are_legal_and_score_as_the_referee_says(en):
    game = ScrubleGame.new(2, seed=9)
    for _ in range(4):
        m = best_words(game.cube, en, game.rules, depth=2, top=1, earlier=game.intact_words(), spent=game.spent_premiums())[0]
        rec = game.play(Turn(tuple(m.notation()), m.word, m.cells), en)
        assert rec["score"] == m.score


def test_game_json_replays_exactly_and_tampering_is_refused(en):
    game = play_game([make_policy("greedy", 1), make_policy("random", 2)], 5, en)
    assert game.over and game.turn <= 20
    assert replay_check(game, en)
    d = game.to_dict()
    d["scores"] = [s + 1 for s in d["scores"]]
    with pytest.raises(StateError, match="scores"):
        ScrubleGame.from_dict(d, en)


def test_solo_game_lasts_the_rounds(en):
    game = play_game([make_policy("greedy", 0)], 3, en)
    assert game.turn == game.rules.rounds and game.scores[0] > 0


def test_simulation_is_seeded_and_greedy_beats_random(en):
    """The generic self-play (kubasolve.scale.selfplay) over Scruble; its records replay in the slid-word report."""
    import io

    from kubasolve.scale.selfplay import simulate

    records = io.StringIO()
    a = simulate("scruble", ["greedy", "random"], 2, seed=3, records=records)
    b = simulate("scruble", ["greedy", "random"], 2, seed=3)
    assert a.rows()[0]["wins"] == b.rows()[0]["wins"] == 2
    assert a.score_sum == b.score_sum
    report = slid_word_report([json.loads(line) for line in records.getvalue().splitlines()], en)
    assert report["games"] == 2 and report["word_turns"] > 0 and report["slid_turns"] == report["premiums_again"] == 0
    with pytest.raises(RulesError):
        simulate("scruble", ["nobody"], 1)


def _issue_22_game(en):
    """Issue 22's reproducer (``printf "R2\\nB2\\nq\\n" | kubasolve scruble play --players human,greedy --seed 3``):
    the human turns R2, greedy plays 2L' U2 = WADE +48 (its premium pegs: a 2x letter and the 3x word), the
    human turns B2."""
    game = ScrubleGame.new(2, seed=3)
    greedy = make_policy("greedy", 3 * 8 + 1)
    game.play(Turn(("R2",)), en)
    rec = game.play(greedy(game, en), en)
    assert (rec["word"], rec["twists"], rec["score"]) == ("wade", ["2L'", "U2"], 48)
    game.play(Turn(("B2",)), en)
    return game, greedy, rec


def test_a_slid_word_does_not_score_again(en):
    """"Se debe colocar al menos una nueva letra": 2R slides WADE 4 cells along its belt, every cell then holds
    another peg, but WADE's pegs stood in that row at the start of the turn: refused (it scored +48 again)."""
    game, greedy, _ = _issue_22_game(en)
    before = json.dumps(game.to_dict())
    with pytest.raises(IllegalMoveError, match="no new letter: its pegs already stood in a row"):
        game.play(Turn(("2R",), "wade"), en)
    assert json.dumps(game.to_dict()) == before
    pegs_before = game.pegs.copy()
    rec = game.play(greedy(game, en), en)
    start = {int(p): c for c, p in enumerate(pegs_before)}
    assert placed_new_letter(start, [int(game.pegs[c]) for c in rec["cells"]])  # greedy's word places a letter


def test_a_premium_peg_never_counts_again_for_its_word(en):
    """"Las clavijas premium … no se aplican en turnos posteriores para esa palabra": WADE used a 2x letter
    and the 3x word peg. The spent premiums are part of the JSON state and checked on replay."""
    game, _, _ = _issue_22_game(en)
    assert game.spent_premiums() and {w for _, w, _, _ in game.spent} == {"wade"}
    d = game.to_dict()
    assert d["spent_premiums"] == [[q, "wade"] for q, _, _, _ in game.spent if q >= 0]
    assert replay_check(game, en)
    d["spent_premiums"] = []
    with pytest.raises(StateError, match="spent_premiums"):
        ScrubleGame.from_dict(d, en)


def test_wade_with_an_e_swapped_for_another_e_is_the_word_already_there(en):
    """"Se debe colocar al menos una nueva letra" as a club player reads it: 2F brings another E peg into WADE's
    last cell; every cell shows the letter it showed, so no letter is placed (it scored 8 before), and a premium
    brought beside such a word does not count ("no se aplican a una palabra existente")."""
    game, _, first = _issue_22_game(en)
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn(("2F",), "wade", tuple(first["cells"])), en)


def test_a_word_broken_and_rebuilt_of_its_own_pegs_does_not_score_again(en):
    """A twist breaks WADE, the twist back rebuilds it of the same pegs: no letter is new to it (it scored 8
    before, and the two twists could be repeated turn after turn)."""
    game, _, _ = _issue_22_game(en)
    game.play(Turn(("2U",)), en)  # breaks WADE, leaves its premium pegs
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn(("2U'",), "wade"), en)


def test_two_twists_back_and_forth_do_not_score_forever(en):
    """Greedy self-play (seed 3, game 0): CETACEANS (F2 2L, +38); the reply D2 2L left CETACEAN in the same cells
    with one E peg swapped for another and the 3x word peg beside it (+56); 2L' rebuilt CETACEANS of its own
    pegs (+38), and 2L / 2L' then scored 32 and 38 turn after turn. Both words are refused now."""
    game = ScrubleGame.new(2, seed=1212546908710170580)
    assert game.play(Turn(("F2", "2L"), "cetaceans"), en)["score"] == 38
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn(("D2", "2L"), "cetacean"), en)
    game.play(Turn(("D2", "2L")), en)
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn(("2L'",), "cetaceans"), en)
    best = best_words(game.cube, en, game.rules, depth=1, top=4096, earlier=game.intact_words(),
                      spent=game.spent_premiums())
    assert "cetaceans" not in {m.word for m in best if m.notation() == ["2L'"]}


def test_a_letter_swapped_for_a_wildcard_read_as_it_places_none(en):
    """Greedy self-play (seed 3, game 19): TOPSIDES (B' 2R, +43), and the reply B' 2R scored TOPSIDES again on the
    same cells (+42): one letter peg replaced by a wildcard read as that letter. No letter a player reads changed:
    "Se debe colocar al menos una nueva letra"."""
    game = ScrubleGame.new(2, seed=4397992694677522711)
    for tw, w in ((("2R", "2F'"), "zed"), (("L2", "U2"), "prides"), (("B'", "2R"), "topsides")):
        game.play(Turn(tw, w), en)
    cells = tuple(game.history[-1]["cells"])
    before = [game.cube.symbols[c] for c in cells]
    after = game.cube.twisted("B' 2R")
    assert [after.symbols[c] for c in cells].count("?") == before.count("?") + 1  # the O's cell: a wildcard now
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn(("B'", "2R"), "topsides", cells), en)


def test_a_word_rebuilt_in_its_cells_with_a_letter_swapped_does_not_score_again(en):
    """Greedy self-play (seed 3, game 19, after the fixes above): TOPSIDES (+43); B' 2R broke it for UPSIDES; 2R'
    2D2 rebuilt TOPSIDES in the same cells, its I peg swapped for another I (+43 again). The same word in the cells
    it scored in is that word made again, whichever of two identical pegs stands in a cell."""
    game = ScrubleGame.new(2, seed=4397992694677522711)
    plays = ((("2R", "2F'"), "zed"), (("L2", "U2"), "prides"), (("B'", "2R"), "topsides"), (("B'", "2R"), "upsides"))
    for tw, w in plays:
        game.play(Turn(tw, w), en)
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn(("2R'", "2D2"), "topsides"), en)


def test_an_extended_word_does_not_use_its_premium_again_and_is_crossed_once(en):
    """Greedy self-play (seed 3, game 1): JAR used the 3x word peg (+42); RAJA (JAR's pegs read back plus an A)
    and then RAJAS used it again (+45, +48), and HALOED crossing them scored RAJA and RAJAS both. A premium peg
    does not count again for a word holding the pegs of the word it counted for ("no se aplican en turnos
    posteriores para esa palabra"), and a crossing scores the word that stands there once. The game opened with OBJ,
    a word of the English list until abbreviations left it (wordlists/en/README.md): the replay adds it back."""
    en = Lexicon.from_words([*en, "obj"], name="en+obj")
    game = ScrubleGame.new(2, seed=1357471299740422801)
    plays = [(("L'", "2R'"), "obj"), (("L'", "D2"), "jar"), (("2U",), "raja"), (("L2", "U2"), "rajas"),
             (("L", "2L'"), "haloed")]
    recs = [game.play(Turn(tw, w), en) for tw, w in plays]
    assert recs[1]["breakdown"]["premium_cells"] and recs[1]["score"] == 42
    assert [r["breakdown"]["word_multiplier"] for r in recs[2:4]] == [1, 1]
    assert [r["score"] for r in recs[2:4]] == [11 + 12, 12 + 12]  # letters + OBJ crossed
    assert recs[4]["breakdown"]["crossed"] == ["rajas"] and recs[4]["breakdown"]["crossing_points"] == 12
    assert replay_check(game, en)


def test_the_game_ends_when_a_player_exceeds_the_target(en):
    """The rulebook ends the game when a player exceeds ("supera") the target: reaching it exactly is not enough."""
    game = ScrubleGame.new(2, seed=9)
    m = best_words(game.cube, en, game.rules, depth=1, top=1)[0]
    game.scores[0] = game.rules.target_score - m.score
    game.play(Turn(tuple(m.notation()), m.word, m.cells), en)
    assert game.scores[0] == game.rules.target_score and not game.over
    reply = best_words(game.cube, en, game.rules, depth=1, top=1, earlier=game.intact_words(),
                       spent=game.spent_premiums())[0]
    game.scores[1] = game.rules.target_score - reply.score + 1
    game.play(Turn(tuple(reply.notation()), reply.word, reply.cells), en)
    assert game.scores[1] == game.rules.target_score + 1 and game.over and game.winners() == [1]


def test_ai_games_never_score_a_slid_word(en):
    """Greedy against greedy (issue 22: 52 of 130 word turns re-scored a slid word): every scored word placed a
    new letter, and no premium peg counted twice for one word."""
    games = [play_game([make_policy("greedy", seed), make_policy("greedy", seed + 1)], seed, en).to_dict() for seed in (1, 2)]
    report = slid_word_report(games)
    assert report["word_turns"] > 4 and report["slid_turns"] == report["premiums_again"] == 0


def test_the_slid_word_report_counts_issue_22s_replay():
    """The report replays records of any version: issue 22's 2R = WADE +48 (refused now) is one slid turn whose two
    premium pegs counted again for WADE."""
    wade = {"twists": ["2L'", "U2"], "word": "wade", "cells": [38, 34, 14, 10], "score": 48,
            "breakdown": {"premium_cells": [42, 6]}}
    origin = apply_twists(np.arange(N_CELLS), parse_twists("2R"))
    moved_to = {int(o): c for c, o in enumerate(origin)}  # where 2R takes each cell's peg
    slid = {**wade, "twists": ["2R"], "cells": [moved_to[c] for c in wade["cells"]],
            "breakdown": {"premium_cells": [moved_to[c] for c in wade["breakdown"]["premium_cells"]]}}
    history = [{"twists": ["R2"], "score": 0}, wade, {"twists": ["B2"], "score": 0}, slid]
    r = slid_word_report([{"history": history}])
    assert (r["word_turns"], r["slid_turns"], r["slid_points"], r["premiums_again"]) == (2, 1, 48, 2)
    assert (r["games"], r["min_turns"], r["max_turns"]) == (1, 4, 4)
