"""Issue 22: letters typed or read in any form reach every game as NFC with Romanian comma-below ș ț.

Each game's entry points (library, CLI, engine) get decomposed (NFD) and cedilla (ş ţ) input and must
answer as for the canonical form.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest

from kubasolve.cli.main import main
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request
from kubasolve.lexicon.alphabet import Alphabet, normalize_text, normalize_word

CEDILLA = "ştiinţă"          # U+015F, U+0163: what old keyboards and files write
COMMA = "știință"            # U+0219, U+021B: the Romanian letters
DECOMPOSED = unicodedata.normalize("NFD", COMMA)


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def ask(session: Session, cmd: str, **params: Any) -> dict[str, Any]:
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}, ensure_ascii=False), session)


def test_normalize_text_nfc_and_comma_below() -> None:
    assert len(DECOMPOSED) > len(COMMA) and normalize_text(DECOMPOSED) == COMMA
    assert normalize_text(CEDILLA) == COMMA and normalize_text(nfd(CEDILLA)) == COMMA
    assert normalize_text("ŞŢ") == "ȘȚ" and normalize_word("ŞTIINŢĂ") == COMMA
    assert normalize_text("Café au lait") == "Café au lait" and normalize_text("AB?") == "AB?"
    assert Alphabet("aăâbcdefghiîjklmnopqrsștțuvwxyz").normalize(f"  {nfd('ŞTIINŢĂ')} ") == COMMA


# ------------------------------------------------------------------------------------------------ colonii
def test_colonii_library_entry_points() -> None:
    from kubasolve.games.colonii.game import action_from_dict
    from kubasolve.games.colonii.table import ColoniiPosition, Group

    assert ColoniiPosition((), CEDILLA).hand == COMMA == ColoniiPosition((), DECOMPOSED).hand
    assert Group((CEDILLA, nfd("țară")), 0).words == (COMMA, "țară")
    turn = action_from_dict({"type": "turn", "moves": [{"play": "new", "word": CEDILLA}]})
    assert turn.moves[0].word == COMMA
    assert action_from_dict({"type": "exchange", "cards": "ŞŢ"}).cards == "șț"


@pytest.mark.parametrize("hand", [CEDILLA, DECOMPOSED, "ŞTIINŢĂ"])
def test_colonii_cli_best_takes_cedilla_and_decomposed_hands(hand: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["colonii", "best", hand, "--table", f"{nfd('țară')}:1", "--top", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"play": "new", "word": COMMA} in [{"play": m["play"], "word": m["word"]} for m in out["best_turn"]["moves"]]


def test_colonii_engine_hand_table_and_moves() -> None:
    session = Session()
    moves = ask(session, "colonii.moves", hand=CEDILLA, table=[{"words": [nfd("țară")], "owner": 1}], top=5)
    assert moves["ok"] and COMMA in {m["word"] for m in moves["result"]["moves"]}
    for seed in range(30):  # a game whose player to move can play a word with a Romanian letter
        game = ask(session, "colonii.new-game", seed=seed)["result"]["game"]
        legal = ask(session, "colonii.legal-moves", game=game)["result"]["moves"]
        word = next((m["word"] for m in legal if m["play"] == "new" and set(m["word"]) & set("ăâîșț")), None)
        if word:
            break
    assert word, "no seed gives a word with a Romanian letter"
    typed = nfd(word).replace("ș", "ş").replace("ț", "ţ")
    answer = ask(session, "colonii.apply-move", game=game, move={"type": "turn", "moves": [{"play": "new", "word": typed}]})
    assert answer["ok"], answer
    log = json.dumps(answer["result"]["state"], ensure_ascii=False)
    assert word in log and "ş" not in log and "ţ" not in log


# ------------------------------------------------------------------------------------------------ kubagram
def test_kubagram_library_entry_points() -> None:
    from kubasolve.games.kubagram.actions import action_from_dict
    from kubasolve.games.kubagram.position import KubagramPosition, TableWord, Tile, parse_table_spec

    nfc = KubagramPosition.from_letters("café", jokers=["ŞT"], table=[COMMA])
    assert KubagramPosition.from_letters(nfd("CAFÉ"), jokers=[nfd("ŞT")], table=[CEDILLA]) == nfc
    assert KubagramPosition.from_dict({"field": nfd("café"), "jokers": ["ŞT"], "table": [{"word": CEDILLA}]}) == nfc
    assert Tile(nfd("é")).letters == "é" and TableWord(DECOMPOSED).word == COMMA
    assert parse_table_spec([f"{CEDILLA}:1"]) == parse_table_spec([f"{COMMA}:1"])
    assert action_from_dict({"type": "claim", "word": CEDILLA}).word == COMMA
    assert action_from_dict({"type": "take", "letter": nfd("é")}).letter == "é"


def test_kubagram_engine_field_in_nfd_answers_as_nfc() -> None:
    session = Session()
    one = ask(session, "kubagram.best-words", position={"field": "zriyuekr"}, top=3)
    two = ask(session, "kubagram.best-words", position={"field": nfd("ZRIYUEKR")}, top=3)
    assert one["ok"] and one["result"] == two["result"]
    foreign = ask(session, "kubagram.best-words", position={"field": nfd("zrié")}, top=3)
    assert not foreign["ok"] and "é" in foreign["error"]["message"] and "\u0301" not in foreign["error"]["message"]


# ------------------------------------------------------------------------------------------------ crossword
def test_crossword_entry_points_normalise_before_judging() -> None:
    from kubasolve.errors import IllegalMoveError, PositionError
    from kubasolve.games.crossword.game import action_from_dict
    from kubasolve.games.crossword.layout import load_tiles
    from kubasolve.games.crossword.movegen import parse_rack

    tiles = load_tiles("nl")
    assert parse_rack("eknow??", tiles) == ("EKNOW", 2)
    with pytest.raises(PositionError, match="'ș'"):  # one letter, named as the player typed it
        parse_rack(nfd("aș"), tiles)
    # a character is a tile only if its upper case is one letter of the set that lower-cases back to it:
    # the German sharp s is not two S tiles, the Turkish dotless i not an I, the ligature fi not F and I
    for odd in ("ß", "ı", "\ufb01"):
        with pytest.raises(PositionError, match=f"holds '{odd}': not tiles"):
            parse_rack(f"AEINR{odd}", tiles)
        with pytest.raises(IllegalMoveError, match=f"'{odd}'"):
            action_from_dict({"type": "exchange", "letters": f"A{odd}"})
    assert action_from_dict({"type": "exchange", "letters": "kq?"}).letters == "KQ?"
    assert action_from_dict({"type": "place", "tiles": [[7, 7, nfd("é")]]}).tiles == ((7, 7, "é"),)
    assert action_from_dict({"type": "place", "move": nfd("8H CAFÉ")}).move == "8H CAFÉ"


def test_crossword_cgp_and_gcg_normalised() -> None:
    from kubasolve.games.crossword.notation import parse_cgp, parse_gcg

    rows = "/".join(["15"] * 15)
    assert parse_cgp(f"{rows} AB/ 0/0 0 lex {nfd('ș')};").options["lex"] == "ș"
    game = parse_gcg(f"#player1 a Ana {nfd('Ştefănescu')}\n#player2 b Bob\n>a: AEKQSXZ 8G ZAK +30 30\n#note {CEDILLA}\n")
    assert game.players[0][1] == "Ana Ștefănescu" and game.events[0].note == COMMA


# ------------------------------------------------------------------------------------------------ scruble
def test_scruble_word_in_nfd_plays_as_nfc() -> None:
    """Spanish ñ typed decomposed (n + combining tilde) is the letter ñ."""
    from kubasolve import load_lexicon
    from kubasolve.games.scruble.game import ScrubleGame, Turn
    from kubasolve.games.scruble.rules import ScrubleRules

    es = load_lexicon("es")
    rules = ScrubleRules.from_dict({"pegs": "es"})
    composed, decomposed = ScrubleGame.new(1, seed=0, rules=rules), ScrubleGame.new(1, seed=0, rules=rules)
    assert composed.play(Turn(("2F2",), "ceño"), es) == decomposed.play(Turn(("2F2",), nfd("CEÑO")), es)
    assert composed.to_dict() == decomposed.to_dict()
    from kubasolve.games.scruble.position import Cube

    start = ScrubleGame.new(1, seed=0, rules=rules).cube
    text = start.notation()
    assert "Ñ" in text and Cube.from_notation(nfd(text), rules.pegs) == start


# ------------------------------------------------------------------------------------------------ lexicon
def test_lexicon_check_takes_cedilla(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "check", "--lexicon", "ro", CEDILLA, "--json"]) == 0
    out = capsys.readouterr().out
    assert COMMA in out and "true" in out.lower()
