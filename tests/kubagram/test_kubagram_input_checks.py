"""A user's mistake in the library API or the CLI's table words is a clear kubasolve error naming the bad value,
never a raw TypeError/AttributeError/OverflowError, nor a silent misreading (a string of jokers read as one joker
per letter, a table given as one string read as one word per letter, ``max_words=0`` or an unknown objective)."""

from __future__ import annotations

from typing import Any

import pytest

from kubasolve.budget import Budget
from kubasolve.cli.main import main
from kubasolve.errors import KubasolveError, LexiconError, PositionError, RulesError
from kubasolve.games.kubagram import KubagramPosition, TableWord, best_move, best_words, compound_moves

P = KubagramPosition.from_letters


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"letters": 123}, "letters must be a string"),
    ({"letters": None}, "letters must be a string"),
    ({"letters": "kroeg", "jokers": "EYGR"}, "jokers must be a list"),
    ({"letters": "kroeg", "jokers": [1]}, "jokers[0]"),
    ({"letters": "kroeg", "choices": "abc"}, "choices must be a list"),
    ({"letters": "kroeg", "choices": [None]}, "choices[0]"),
    ({"letters": "kroeg", "table": "tocht"}, "table must be a list"),
    ({"letters": "kroeg", "mover": -1}, "mover"),
    ({"letters": "kroeg", "mover": "1"}, "mover"),
    ({"letters": "kroeg", "last_cube": "yes"}, "last_cube"),
])
def test_from_letters_refuses_wrong_types(kwargs: dict[str, Any], needle: str) -> None:
    with pytest.raises(PositionError, match=None) as e:
        P(**kwargs)
    assert needle in str(e.value)


@pytest.mark.parametrize(("word", "needle"), [
    (TableWord(123), "table[0]"),  # type: ignore[arg-type]
    (TableWord("tocht", owner="1"), "owner"),  # type: ignore[arg-type]
    (TableWord("tocht", level="1"), "level"),  # type: ignore[arg-type]
    (TableWord("tocht", level=99), "at most 16"),  # overflowed the compound table's int64 (OverflowError)
    (TableWord("tocht", jokers=70), "at most 16"),
])
def test_table_words_checked(nl, rules, word: TableWord, needle: str) -> None:
    position = P("kroegen", table=[word])
    for search in (lambda: compound_moves(position, nl, rules), lambda: best_move(position, nl, rules)):
        with pytest.raises(PositionError) as e:
            search()
        assert needle in str(e.value)


def test_table_word_level_at_the_bound_still_scores(nl, rules) -> None:
    [c] = compound_moves(P("kroegen", table=[TableWord("tocht", owner=1, level=16)]), nl, rules)
    assert c.level == 17 and c.score > 0


@pytest.mark.parametrize(("call", "error", "needle"), [
    (lambda nl, r: best_words(P("kroegen"), nl, r, top="3"), PositionError, "top"),
    (lambda nl, r: best_words(P("kroegen"), nl, r, top=2.5), PositionError, "top"),
    (lambda nl, r: best_words(P("kroegen"), nl, r, top=True), PositionError, "top"),
    (lambda nl, r: compound_moves(P("kroegen", table=["tocht"]), nl, r, top=-1), PositionError, "top"),
    (lambda nl, r: compound_moves(P("kroegen", table=["tocht"]), nl, r, top="2"), PositionError, "top"),
    (lambda nl, r: compound_moves(P("kroegen", table=["tocht"]), nl, r, objective="foo"), PositionError, "objective"),
    (lambda nl, r: best_move(P("kroegen", table=["tocht"]), nl, r, objective="foo"), PositionError, "objective"),
    (lambda nl, r: best_move(P("kroegen"), nl, r, max_words=0), PositionError, "max_words"),
    (lambda nl, r: best_move(P("kroegen"), nl, r, max_words="2"), PositionError, "max_words"),
    (lambda nl, r: best_words(P("kroegen"), nl, r, budget={"movetime_ms": 5}), PositionError, "budget"),
    (lambda nl, r: best_words(P("kroegen"), nl, r, budget=5), PositionError, "budget"),
    (lambda nl, r: best_words("kroegen", nl, r), PositionError, "position"),
    (lambda nl, r: best_words(P("kroegen"), nl, "x"), RulesError, "rules"),
    (lambda nl, r: best_words(P("kroegen"), "nl", r), LexiconError, "lexicon"),
])
def test_search_arguments_checked(nl, rules, call, error: type[KubasolveError], needle: str) -> None:
    with pytest.raises(error) as e:
        call(nl, rules)
    assert needle in str(e.value)


def test_good_arguments_still_work(nl, rules) -> None:
    position = P("kroegen", table=[TableWord("tocht", owner=1)])
    assert best_words(position, nl, rules, top=1, budget=Budget(max_nodes=10**6))
    assert compound_moves(position, nl, rules, top=1, objective="swing")[0].word == "kroegentocht"
    assert best_move(position, nl, rules, objective="swing", max_words=2).gain > 0


@pytest.mark.parametrize(("tile", "needle"), [
    ({"letters": "eygr", "joker": "no"}, "joker"),  # was bool("no"): a joker
    ({"letters": "eygr", "jokr": True}, "jokr"),  # was silently a plain choice cube
])
def test_from_dict_tiles_checked(tile: dict[str, Any], needle: str) -> None:
    with pytest.raises(PositionError) as e:
        KubagramPosition.from_dict({"tiles": [tile]})
    assert needle in str(e.value)


def test_cli_table_level_out_of_range_is_a_clear_error(capsys) -> None:
    assert main(["kubagram", "best", "kroegen", "--table", "tocht:1:0:99"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "OverflowError" not in err and "level 99" in err
    assert main(["kubagram", "best", "kroegen", "--table", "tocht:8"]) == 1  # an owner is a player index, as --mover
    assert "owner is a player index from 0 to 7, got 8" in capsys.readouterr().err
    assert main(["kubagram", "best", "kroegen", "--table", "tocht:1:EYGR"]) == 1  # JOKERS is a count
    assert "jokers how many of its letters are jokers" in capsys.readouterr().err


def test_cli_best_claim_under_a_spent_budget_is_at_least_the_best_word_listed(capsys) -> None:
    # one budget for words, compounds and claim: the words' search spent it, and the claim search answered
    # "(nothing)  gain 0" below a listed word worth 292
    import json

    argv = ["kubagram", "best", "kroegentochtenregenboog", "--joker", "EYGR", "--joker", "PLTOLE", "--choice", "abc",
            "--table", "kroegen:1", "tocht:2", "regen:1", "--claim", "--max-nodes", "50", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert not out["proven_optimal"] and out["words"]
    best_listed = max([w["score"] for w in out["words"]] + [c["gain"] for c in out["compounds"]])
    assert out["best_claim"]["gain"] >= best_listed > 0
