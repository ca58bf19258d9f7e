"""Each Scruble rule with the rulebook text it implements ("Reglas del juego Scruble Cube")."""

from __future__ import annotations

import numpy as np
import pytest

from kubasolve.errors import RulesError
from kubasolve.games.scruble.cube import N_CELLS, geometry
from kubasolve.games.scruble.pegs import PegSet, load_pegs
from kubasolve.games.scruble.position import Cube, EarlierWord, Run, score_run
from kubasolve.games.scruble.rules import ScrubleRules

MOVED = np.roll(np.arange(N_CELLS), 1)  # every peg moved: every letter is new
STILL = np.arange(N_CELLS)
Y_BELT = 7  # F's top row left to right, then R, B, L


def place(text: str, belt: int = Y_BELT, start: int = 0) -> Cube:
    """A cube with ``text`` laid along a belt from ``start`` and ``.`` cells as Q."""
    syms = ["Q"] * N_CELLS
    for i, ch in enumerate(text):
        syms[int(geometry().belt_cells[belt, (start + i) % 16])] = ch
    return Cube(tuple(syms))


DEFAULT = ScrubleRules()


def score(text, word, rules=DEFAULT, start=1, origin=MOVED, earlier=()):
    cube = place(text)
    return score_run(cube.symbols, origin, Run(Y_BELT, start, 1, len(word)), word, rules, earlier)


def test_elf_scores_6():
    """Rulebook example: ELF = 6 (English letter values)."""
    assert score("XELFX", "elf").score == 6


def test_min_length_three_or_four():
    """'Las palabras deben tener como minimo 3 letras (4 en la version dificil).'"""
    assert score("XELFX", "elf") is not None
    assert score("XELFX", "elf", ScrubleRules(min_length=4)) is None


def test_at_least_one_new_letter():
    """'Al menos una letra nueva colocada' in the turn: a word of unmoved pegs does not score."""
    assert score("XELFX", "elf", origin=STILL) is None
    origin = STILL.copy()
    cell = int(geometry().belt_cells[Y_BELT, 2])
    origin[cell], origin[0] = origin[0], origin[cell]
    assert score("XELFX", "elf", origin=origin) is not None


def test_option_one_letter_premium_at_the_end():
    """Option 1: STREET with a 3x letter premium peg at its end scores 8 (the T tripled)."""
    b = score("XSTREET3", "street")
    assert b.word_points == 8 and b.premium_cells
    assert b.length_bonus == 5 and b.score == 13  # 6 letters: +5 on top of the example's 8


def test_option_one_word_premium():
    """Option 1: STREET with a 2x word premium peg at an end scores 12."""
    assert score("+STREETX", "street").word_points == 12
    assert score("XSTREET+", "street").word_points == 12


def test_option_one_premium_inside_a_word_breaks_it():
    assert score("XST3EETX", "street") is None


def test_option_two_premium_pegs_are_wildcards():
    """Option 2: CRAZY with the 2x letter wildcard as Z: 13 (the higher neighbour Y doubled)."""
    rules = ScrubleRules(premium_mode="wild")
    b = score("XCRA2YX", "crazy", rules)
    assert b.score == 13 and b.word_points == 13
    assert score("XCRA2YX", "crazy") is None  # option 1: a premium peg is no letter
    assert score("XCRA+YX", "crazy", rules).score == 18  # word premium wildcard doubles 9


def test_wildcard_pegs_are_worth_zero():
    assert score("XCRA?YX", "crazy").score == 3 + 1 + 1 + 0 + 4


def test_length_bonuses():
    """'6 letras +5, 7-8 letras +10, 9 o mas letras +15.'"""
    r = ScrubleRules()
    assert [r.bonus_for_length(n) for n in (5, 6, 7, 8, 9, 12)] == [0, 5, 10, 10, 15, 15]


def test_three_faces_bonus():
    """'Palabra con letras en tres caras: +10.' A run of 6 starting on F's last cell spans F, R, B."""
    cube = place("QQQSTREETQ")
    b = score_run(cube.symbols, MOVED, Run(Y_BELT, 3, 1, 6), "street", ScrubleRules())
    assert b.face_bonus == 10
    assert score("XSTREETX", "street").face_bonus == 0


def test_crossing_scores_both_words():
    """A new word crossing, at a right angle, an intact word scored earlier scores that word too."""
    g = geometry()
    cell = int(g.belt_cells[Y_BELT, 2])
    other = int(g.cell_belts[cell][0] if g.cell_belts[cell][0] != Y_BELT else g.cell_belts[cell][1])
    earlier = EarlierWord("old", (cell,), other, 7)
    origin = STILL.copy()
    c1 = int(g.belt_cells[Y_BELT, 1])
    origin[c1], origin[0] = 0, c1  # move one letter of the new word, not the crossing cell
    assert score("XELFX", "elf", origin=origin, earlier=[earlier]).crossing_points == 7
    same_belt = EarlierWord("old", (cell,), Y_BELT, 7)
    assert score("XELFX", "elf", origin=origin, earlier=[same_belt]).crossing_points == 0
    # broken word (its cell holds a moved peg) does not count
    assert score("XELFX", "elf", earlier=[earlier]).crossing_points == 0


def test_end_defaults():
    """'Gana el primero en llegar a 100 puntos' or the best after the agreed rounds (10)."""
    r = ScrubleRules()
    assert (r.target_score, r.rounds) == (100, 10)


def test_rules_from_dict_refuse_unknown_keys_and_bad_values(tmp_path):
    with pytest.raises(RulesError, match="unknown Scruble rule"):
        ScrubleRules.from_dict({"colour": 1})
    with pytest.raises(RulesError, match="premium_mode"):
        ScrubleRules(premium_mode="x")
    p = tmp_path / "r.toml"
    p.write_text('[scruble]\nmin_length = 4\npremium_mode = "wild"\npegs = "es"\n')
    r = ScrubleRules.from_toml(p)
    assert r.min_length == 4 and r.pegs.name == "es"
    assert ScrubleRules.from_dict(r.to_dict()) == r


def test_peg_sets_fill_96_cells_and_load_from_toml(tmp_path):
    for name in ("en", "es"):
        assert len(load_pegs(name).symbols()) == 96
    en = load_pegs("en")
    assert en.values["z"] == 10 and en.values["e"] == 1 and en.wildcards == 2
    p = tmp_path / "mine.toml"
    d = en.to_dict()
    d["counts"]["e"] -= 1
    import tomllib  # noqa: F401  (the format is TOML; write it by hand)
    lines = ['name = "mine"', f'alphabet = "{d["alphabet"]}"', "wildcards = 3", "[values]"]
    lines += [f"{k} = {v}" for k, v in d["values"].items()] + ["[counts]"] + [f"{k} = {v}" for k, v in d["counts"].items()]
    p.write_text("\n".join(lines) + "\n")
    mine = PegSet.from_toml(p)
    assert mine.wildcards == 3 and len(mine.symbols()) == 96
    d["counts"]["e"] -= 1
    with pytest.raises(RulesError, match="96 cells"):
        PegSet.from_dict({**d, "wildcards": 3})


def test_rules_files_load_through_the_shared_loader_with_clear_errors(tmp_path, capsys):
    from kubasolve.cli.main import main

    top = tmp_path / "top.toml"
    top.write_text("min_length = 4\n")  # top-level keys work as well as a [scruble] table
    assert ScrubleRules.from_toml(str(top)).min_length == 4
    assert ScrubleRules.from_toml("[scruble]\nmin_length = 4\n").min_length == 4  # TOML text
    bad = {"unknown.toml": "[scruble]\nmin_lenght = 4\n", "broken.toml": "min_length = = 4\n"}
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "latin1.toml").write_bytes(b"# \xe9\nmin_length = 4\n")
    for name, match in (("unknown.toml", "min_lenght"), ("broken.toml", "invalid TOML"), ("latin1.toml", "cannot read"),
                        ("missing.toml", "cannot read")):
        with pytest.raises(RulesError, match=match):
            ScrubleRules.from_toml(tmp_path / name)
    code = main(["scruble", "best", "--rules", str(tmp_path / "unknown.toml"), "--depth", "1",
                 "A" * 96])
    err = capsys.readouterr().err
    assert code == 1 and "min_lenght" in err and "Traceback" not in err


@pytest.mark.parametrize("game", ["crossword", "colonii"])
def test_the_shared_loader_explains_a_non_utf8_rules_file_for_every_game(game, tmp_path):
    from kubasolve.games.colonii.rules import ColoniiRules
    from kubasolve.games.crossword.rules import CrosswordRules

    p = tmp_path / "latin1.toml"
    p.write_bytes(b"# \xe9\n")
    cls = {"crossword": CrosswordRules, "colonii": ColoniiRules}[game]
    with pytest.raises(RulesError, match="cannot read rules file"):
        cls.from_toml(str(p))


def test_a_rules_file_without_the_toml_suffix_and_long_one_line_text_both_load(tmp_path):
    plain = tmp_path / "myrules"
    plain.write_text("[scruble]\nmin_length = 4\n")
    assert ScrubleRules.from_toml(str(plain)).min_length == 4  # an existing file is read, whatever its name
    long_text = "min_length = 4 " + "#" * 5000  # one line, too long to be a file name: TOML text
    assert ScrubleRules.from_toml(long_text).min_length == 4
