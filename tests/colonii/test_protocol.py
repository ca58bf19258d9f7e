"""Colonii in the game protocol: the owner's actions (declare, decolonise) are legal-moves entries whose action
apply takes verbatim (issue 22: "Make both owner actions"; issue 21: entries carry the action apply accepts)."""

from __future__ import annotations

import pytest

from kubasolve.games import load_game
from kubasolve.games.colonii.game import ColoniiState
from kubasolve.games.colonii.render import last_turn_text
from kubasolve.games.colonii.table import Group

TEN = ("ziar", "rac", "cal", "lac", "cai", "ie", "ele", "ea", "al", "lea")  # a colony of ten words, ZIAR (6) first


@pytest.mark.parametrize("max_turn_moves", [1, 3])
def test_legal_moves_list_the_owners_actions_and_apply_takes_them(max_turn_moves: int) -> None:
    game = load_game("colonii", {"max_turn_moves": max_turn_moves})
    dealt = game.referee.new_game(0, 2)
    mine, theirs = Group(TEN, 0), Group(TEN, 1)
    native = ColoniiState(dealt.rules, 0, 2, dealt.deck, ("zz", dealt.hands[1]), (mine, theirs), (0, 0))
    state = game.state_of(native)
    listed = game.legal_moves(state, top=20)
    singles = {e.text: e for e in listed.moves if e.action["type"] == "turn" and len(e.action["moves"]) == 1}
    assert singles["declare #0"].action == {"type": "turn", "moves": [{"play": "declare", "target": 0}]}
    assert singles["declare #0"].score == 5 and singles["decolonise #0"].score == 6
    assert "declare #1" not in singles and "decolonise #1" not in singles  # another player's colony
    # the best turn makes both (declaration first) and is listed first; two moves combine, so no count
    assert listed.moves[0].action["moves"] == [{"play": "declare", "target": 0}, {"play": "decolonise", "target": 0}]
    assert listed.moves[0].score == 11 and listed.count is None and not listed.complete
    for entry in listed.moves:
        after = game.apply(state, entry.action)  # verbatim
        if entry.score is not None:
            assert after.native.scores[0] - native.scores[0] == entry.score, entry.text
        if entry.action["type"] == "turn" and entry.action["moves"][0]["play"] == "declare":
            assert last_turn_text(after.native, ["ana", "ion"]).startswith("ana: declare on [0]")


def test_the_owners_actions_are_listed_with_what_to_type() -> None:
    """``h`` in ``colonii play`` shows what to type for each legal move: the owner's actions too (``s GROUP``,
    ``d GROUP``, which ``parse_command`` reads), so a turn that declares is typed, not only chosen by its number.
    Before, ``command_text`` gave None for them (the hint showed only the number)."""
    game = load_game("colonii", {"max_turn_moves": 3})
    dealt = game.referee.new_game(0, 2)
    native = ColoniiState(dealt.rules, 0, 2, dealt.deck, ("zz", dealt.hands[1]), (Group(TEN, 0), Group(TEN, 1)), (0, 0))
    state = game.state_of(native)
    typed = {e.text: game.command_text(state, e.action) for e in game.legal_moves(state, top=20).moves}
    assert typed["declare #0"] == "s 0" and typed["decolonise #0"] == "d 0"
    for entry in game.legal_moves(state, top=20).moves:
        text = game.command_text(state, entry.action)
        assert text is not None, entry.text
        assert game.parse_command(state, text) == entry.action, text
