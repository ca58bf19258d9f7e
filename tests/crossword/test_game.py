"""Crossword games: the referee scores exactly like the move generator, JSON state, exact replay,
validated resume, whole AI games."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from kubasolve.errors import IllegalMoveError, StateError
from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.game import CrosswordState, Referee, play_game, replay
from kubasolve.games.crossword.movegen import generate_moves
from kubasolve.games.crossword.rules import CrosswordRules


@pytest.fixture(scope="module")
def referee(nl_lexicon) -> Referee:  # type: ignore[no-untyped-def]
    return Referee(nl_lexicon)


def test_referee_scores_every_golden_top_move_like_the_generator(golden_records, referee):
    """The referee judges each of the top 30 moves of the 105 wolges positions: legal, same score."""
    checked = 0
    for rec in golden_records:
        board = Board.from_rows(rec["board"], referee.lexicon.alphabet)
        for m in rec["top"]:
            judged = referee.judge_placement(board, rec["rack"], [tuple(t) for t in m["tiles"]])
            assert judged.invalid == (), (rec["id"], m)
            p = judged.placement
            assert (p.score, p.row, p.col, p.direction, p.word) == (m["score"], m["row"], m["col"], m["dir"], m["word"]), (rec["id"], m)
            checked += 1
    assert checked > 2900


def test_referee_scores_all_generated_moves_in_a_game(referee):
    """Every legal move of positions from a real game, scored by the referee, equals the generator's score."""
    from kubasolve.games.crossword.ai import make_policy

    rec = play_game([make_policy("score"), make_policy("score")], 11, referee)
    state = referee.new_game(11, 2)
    for k, (_, action) in enumerate(rec.actions[:8]):
        moves = generate_moves(state.board, state.rack(), referee.lexicon, referee.layout, referee.tiles).moves
        for m in moves[:: max(1, len(moves) // 60)]:
            assert referee.judge_placement(state.board, state.rack(), m.tiles).placement.score == m.score, (k, m)
        state = referee.apply(state, action)


def test_whole_game_state_json_replay_and_resume(referee):
    """JSON state; exact replay from seed + actions; a resumed state is checked against its history."""
    from kubasolve.games.crossword.ai import make_policy

    rec = play_game([make_policy("equity"), make_policy("score")], 4, referee)
    final = rec.final
    assert final is not None and final.over
    # every tile is somewhere
    board_tiles = Counter("?" if ch.islower() else ch for row in final.board.to_rows() for ch in row if ch != ".")
    assert board_tiles + Counter(final.bag) + Counter("".join(final.racks)) == Counter(referee.tiles.counts)
    again = replay(4, rec.actions, 2, referee)
    assert again.to_dict() == final.to_dict()
    text = final.to_json()
    assert CrosswordState.from_json(text, referee).to_dict() == final.to_dict()
    data = json.loads(text)
    data["scores"][0] += 1
    with pytest.raises(StateError, match="'scores'"):
        CrosswordState.from_dict(data, referee)
    data = json.loads(text)
    data["racks"][0] += "Q"
    with pytest.raises(StateError, match=r"do not add up.*Q \+1"):
        CrosswordState.from_dict(data, referee)
    data = json.loads(text)
    data["history"][3][1] = {"type": "place", "tiles": [[0, 0, "Q"]]}
    with pytest.raises(StateError, match="not legal: action 3"):
        CrosswordState.from_dict(data, referee)
    with pytest.raises(StateError, match="not a crossword state"):
        CrosswordState.from_dict({"format": "x"}, referee)


def test_mid_game_state_resumes(referee):
    st = referee.new_game(9, 3)
    st = referee.apply(st, {"type": "pass"})
    st = referee.apply(st, {"type": "exchange", "letters": st.rack()[:3]})
    resumed = CrosswordState.from_dict(st.to_dict(), referee)
    assert resumed.to_dict() == st.to_dict() and resumed.current == (referee.new_game(9, 3).current + 2) % 3


def test_replay_refuses_the_wrong_player(referee):
    wrong = 1 - referee.new_game(0, 2).current
    with pytest.raises(IllegalMoveError, match=f"recorded for player {wrong}"):
        replay(0, [(wrong, {"type": "pass"})], 2, referee)


def test_challenge_mode_game_with_ais_ends(nl_lexicon):
    from kubasolve.games.crossword.ai import make_policy

    ref = Referee(nl_lexicon, CrosswordRules(word_check="challenge"))
    rec = play_game([make_policy("score"), make_policy("score")], 3, ref)
    assert rec.final is not None and rec.final.over
    assert replay(3, rec.actions, 2, ref).to_dict() == rec.final.to_dict()
