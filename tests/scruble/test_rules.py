"""Each Scruble rule with the rulebook text it implements ("Reglas del juego Scruble Cube").

The rulebook's text is not in this repository; the only verbatim Spanish quoted here is what issue 22 quotes
from it ("Se debe colocar al menos una nueva letra", "Las clavijas premium … no se aplican en turnos posteriores
para esa palabra", "no se aplican a una palabra existente", and that the game ends when a player "supera" the
target). Every other rule is named in English, as issue 11 states it, without quotation marks.
"""

from __future__ import annotations

import numpy as np
import pytest

from kubasolve.errors import RulesError
from kubasolve.games.scruble.cube import N_CELLS, geometry
from kubasolve.games.scruble.pegs import PegSet, load_pegs
from kubasolve.games.scruble.position import (
    SCORED_WORD,
    Cube,
    EarlierWord,
    Run,
    SpentPremium,
    crossable,
    placed_new_letter,
    score_run,
)
from kubasolve.games.scruble.rules import ScrubleRules

MOVED = (np.arange(N_CELLS) * 37 + 11) % N_CELLS  # every peg moved, no two neighbours kept: every word is new
STILL = np.arange(N_CELLS)
Y_BELT = 7  # F's top row left to right, then R, B, L


def place(text: str, belt: int = Y_BELT, start: int = 0) -> Cube:
    """A cube with ``text`` laid along a belt from ``start`` and ``.`` cells as Q."""
    syms = ["Q"] * N_CELLS
    for i, ch in enumerate(text):
        syms[int(geometry().belt_cells[belt, (start + i) % 16])] = ch
    return Cube(tuple(syms))


DEFAULT = ScrubleRules()
WILD = ScrubleRules(premium_mode="wild")


def score(text, word, rules=DEFAULT, start=1, origin=MOVED, earlier=(), spent=()):
    cube = place(text)
    return score_run(cube.symbols, origin, Run(Y_BELT, start, 1, len(word)), word, rules, earlier, spent)


def slid(shift: int, belt: int = Y_BELT, reverse: bool = False) -> np.ndarray:
    """``origin`` after pegs moved ``shift`` cells along ``belt`` (reversed: turned end over end), others still."""
    ring = [int(c) for c in geometry().belt_cells[belt]]
    origin = STILL.copy()
    for p, cell in enumerate(ring):
        origin[cell] = ring[(-p - shift) % 16] if reverse else ring[(p - shift) % 16]
    return origin


def test_elf_scores_6():
    """Rulebook example: ELF = 6 (English letter values)."""
    assert score("XELFX", "elf").score == 6


def test_min_length_three_or_four():
    """Rulebook: words of at least 3 letters, 4 as the harder option (issue 11's English statement)."""
    assert score("XELFX", "elf") is not None
    assert score("XELFX", "elf", ScrubleRules(min_length=4)) is None


def test_at_least_one_new_letter():
    """"Se debe colocar al menos una nueva letra": a word of unmoved pegs does not score; one peg brought in
    makes it new."""
    assert score("XELFX", "elf", origin=STILL) is None
    origin = STILL.copy()
    cell = int(geometry().belt_cells[Y_BELT, 2])
    origin[cell], origin[0] = origin[0], origin[cell]
    assert score("XELFX", "elf", origin=origin) is not None


@pytest.mark.parametrize("shift", [4, 8, 12, 1])
def test_a_word_slid_along_its_belt_places_no_new_letter(shift):
    """"Se debe colocar al menos una nueva letra", read by pegs: a layer turn shifts a belt by 4 cells and every
    cell then holds another peg, but the word's pegs stood in that row, in that order, at the start of the turn."""
    for origin in (slid(shift), slid(shift + 1, reverse=True)):  # an even-sized row turned over: odd shift
        cells = Run(Y_BELT, 1, 1, 3).cells()
        assert all(int(origin[c]) != c for c in cells)  # every cell holds another peg...
        assert not placed_new_letter(origin, cells)  # ...but no letter is new
        assert score("XELFX", "elf", origin=origin) is None
    # the row's pegs in another order, or one of them replaced, place a new letter
    origin = slid(4)
    a, b = Run(Y_BELT, 1, 1, 3).cells()[:2]
    origin[a], origin[b] = origin[b], origin[a]
    assert placed_new_letter(origin, Run(Y_BELT, 1, 1, 3).cells())


def test_a_word_in_cells_that_show_the_same_letters_places_none():
    """"Se debe colocar al menos una nueva letra", read as a club player reads it: a twist that swaps the E of ELF
    for another E peg changes no letter anyone sees, so ELF was there already (and a premium peg brought beside
    it does not count: "no se aplican a una palabra existente"). Swapping in another letter places one."""
    cube = place("XELFX")
    e_cell, other = int(geometry().belt_cells[Y_BELT, 1]), 0
    syms = list(cube.symbols)
    syms[other] = "E"
    origin = STILL.copy()
    origin[e_cell], origin[other] = other, e_cell  # the E pegs swapped: the cube shows what it showed
    run = Run(Y_BELT, 1, 1, 3)
    assert placed_new_letter(origin, run.cells())  # by pegs the E is another one...
    assert score_run(tuple(syms), origin, run, "elf", DEFAULT) is None  # ...but no letter is new
    syms[other] = "A"  # the peg brought in shows another letter: no word ELF, and ALF places the A
    now = [syms[int(o)] for o in origin]
    assert score_run(tuple(now), origin, run, "alf", DEFAULT) is not None


def test_a_letter_swapped_for_a_wildcard_read_as_it_places_none():
    """A wildcard brought in for ELF's L and read as L places no new letter (the word reads as it read); read as
    another letter (ERF) it places one."""
    cube = place("XELFX")
    l_cell = int(geometry().belt_cells[Y_BELT, 2])
    syms = list(cube.symbols)
    syms[0] = "?"
    origin = STILL.copy()
    origin[l_cell], origin[0] = 0, l_cell  # the wildcard now in L's cell
    now = tuple(syms[int(o)] for o in origin)
    run = Run(Y_BELT, 1, 1, 3)
    assert score_run(now, origin, run, "elf", DEFAULT) is None
    assert score_run(now, origin, run, "erf", DEFAULT) is not None
    wild_now = tuple("2" if c == "?" else c for c in now)  # option 2: a premium peg is a wildcard too
    assert score_run(wild_now, origin, run, "elf", WILD) is None


def test_a_scored_word_made_again_of_its_own_pegs_places_no_letter():
    """A word scored in an earlier turn, broken and rebuilt of the same pegs (in order, or read back), places no
    new letter; rebuilt with one other peg it does (and scores its letters: its premiums are spent)."""
    pegs = tuple(int(MOVED[c]) for c in Run(Y_BELT, 1, 1, 3).cells())
    assert score("XELFX", "elf") is not None
    for scored in (pegs, pegs[::-1]):
        assert score("XELFX", "elf", spent=[SpentPremium(SCORED_WORD, "elf", scored)]) is None
    assert score("XELFX", "elf", spent=[SpentPremium(SCORED_WORD, "elf", pegs[:2] + (pegs[2] + 1,))]) is not None
    assert score("XELFX", "elf", spent=[SpentPremium(SCORED_WORD, "elves", pegs)]) is not None
    # in the cells it scored in, with other pegs (an E swapped for another E while it was broken): the same word
    cells = tuple(Run(Y_BELT, 1, 1, 3).cells())
    other = tuple(p + 1 for p in pegs)
    assert score("XELFX", "elf", spent=[SpentPremium(SCORED_WORD, "elf", other, cells)]) is None
    assert score("XELFX", "elf", spent=[SpentPremium(SCORED_WORD, "elf", other, cells[::-1])]) is None
    assert score("XELFX", "elf", spent=[SpentPremium(SCORED_WORD, "elf", other, ())]) is not None


def test_a_premium_peg_does_not_count_again_for_an_extended_word():
    """"Las clavijas premium … no se aplican en turnos posteriores para esa palabra": the 3x letter peg that
    counted for TREE does not count for STREET made by adding an S to TREE's pegs; for a STREET of other pegs it
    does."""
    cells = Run(Y_BELT, 1, 1, 6).cells()
    premium = int(MOVED[geometry().belt_cells[Y_BELT, 7]])
    tree = tuple(int(MOVED[c]) for c in cells[2:])
    assert score("XSTREET3", "street", spent=[SpentPremium(premium, "tree", tree)]).word_points == 6
    assert score("XSTREET3", "street", spent=[SpentPremium(premium, "tree", tree[::-1])]).word_points == 6
    other = (tree[0] + 1,) + tree[1:]
    assert score("XSTREET3", "street", spent=[SpentPremium(premium, "tree", other)]).word_points == 8


def test_a_crossed_word_scores_once_as_the_word_that_stands():
    """Crossing scores an intact earlier word again (issue 11): RAJA made RAJAS, so a word crossing them scores
    RAJAS once, not RAJA and RAJAS; a word scored twice on the same cells counts once."""
    cells = tuple(Run(Y_BELT, 1, 1, 5).cells())
    raja, rajas = EarlierWord("raja", cells[:4], Y_BELT, 11), EarlierWord("rajas", cells, Y_BELT, 12)
    assert crossable([raja, rajas]) == [rajas] and crossable([rajas, raja]) == [rajas]
    assert crossable([rajas, rajas]) == [rajas]
    elsewhere = EarlierWord("raja", cells[:4], Y_BELT + 1, 11)
    assert crossable([raja, rajas, elsewhere]) == [rajas, elsewhere]


def test_a_premium_peg_counts_once_for_a_word():
    """"Las clavijas premium … no se aplican en turnos posteriores para esa palabra": a premium peg that counted
    for a word does not count for that word again, whichever pegs spell it now; for another word, or another
    premium peg, it does."""
    text, run_cells = "XSTREET3", Run(Y_BELT, 1, 1, 6).cells()
    premium = int(MOVED[geometry().belt_cells[Y_BELT, 7]])  # the 3x peg at the end, by its start cell
    assert score(text, "street").word_points == 8
    b = score(text, "street", spent=[SpentPremium(premium, "street")])
    assert b.word_points == 6 and b.premium_cells == ()
    assert score(text, "street", spent=[SpentPremium(premium, "streets")]).word_points == 8
    assert score(text, "street", spent=[SpentPremium(premium + 1, "street")]).word_points == 8
    wild = score("XSTR+ETX", "street", WILD, spent=[SpentPremium(int(MOVED[run_cells[3]]), "street")])
    assert wild.word_multiplier == 1  # option 2 too: the spent word premium is a plain wildcard


def test_option_one_letter_premium_at_the_end():
    """Rulebook example, option 1: a 3x letter premium peg at the end of the word: 8. The rulebook's word is
    CALLE, but 8 (and 12 below) is the arithmetic of STREET with English values (docs/scruble.md)."""
    b = score("XSTREET3", "street")
    assert b.word_points == 8 and b.premium_cells
    assert b.length_bonus == 5 and b.score == 13  # 6 letters: +5 on top of the example's 8


def test_option_one_word_premium():
    """Rulebook example, option 1: a 2x word premium peg at an end: 12 (STREET, as above)."""
    assert score("+STREETX", "street").word_points == 12
    assert score("XSTREET+", "street").word_points == 12


def test_option_one_word_premiums_at_both_ends_multiply():
    """Choice (docs/scruble.md): premium pegs at both ends both count, word premiums multiplying as in Scrabble."""
    assert score("+STREET#", "street").word_points == 6 * 2 * 3
    assert score("2STREET3", "street").word_points == 6 + 1 + 2


def test_option_one_premium_inside_a_word_breaks_it():
    assert score("XST3EETX", "street") is None


def test_option_two_premium_pegs_are_wildcards():
    """Rulebook example, option 2: CRAZY with the 2x letter wildcard as Z: 13 (the higher neighbour Y doubled)."""
    b = score("XCRA2YX", "crazy", WILD)
    assert b.score == 13 and b.word_points == 13
    assert score("XCRA2YX", "crazy") is None  # option 1: a premium peg is no letter
    assert score("XCRA+YX", "crazy", WILD).score == 18  # word premium wildcard doubles 9


def test_option_two_a_tie_between_neighbours_is_read_in_the_players_favour():
    """Option 2, a letter-premium wildcard between two equally valued letters: the player picks the reading.
    C2C3AS as COCOAS: the 2x between two Cs doubles the C the 3x also triples (3 x 6 = 18): 28, where always
    doubling the left C gave 22."""
    b = score("XC2C3ASX", "cocoas", WILD)
    assert b.word_points == 3 + 18 + 1 + 1 and b.score == 28
    assert score("XCO2O3SX", "cocoas", WILD).word_points == 3 + 1 + 1 * 6 + 1  # both on the second O


def test_wildcard_pegs_are_worth_zero():
    assert score("XCRA?YX", "crazy").score == 3 + 1 + 1 + 0 + 4


def test_length_bonuses():
    """Rulebook: 6 letters +5, 7-8 letters +10, 9 or more letters +15 (issue 11's English statement)."""
    r = ScrubleRules()
    assert [r.bonus_for_length(n) for n in (5, 6, 7, 8, 9, 12)] == [0, 5, 10, 10, 15, 15]


def test_three_faces_bonus():
    """Rulebook: letters on three faces +10 (issue 11). A run of 6 starting on F's last cell spans F, R, B."""
    cube = place("QQQSTREETQ")
    b = score_run(cube.symbols, MOVED, Run(Y_BELT, 3, 1, 6), "street", ScrubleRules())
    assert b.face_bonus == 10
    assert score("XSTREETX", "street").face_bonus == 0


def test_crossing_scores_both_words():
    """Rulebook: a new word crossing, at a right angle, a word scored earlier and still intact scores both
    (issue 11); premium pegs do not count for the crossed word ("no se aplican a una palabra existente")."""
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
    """Rulebook: the game ends when a player exceeds ("supera") the target score, 100 by default, or after the
    agreed number of rounds (10 by default); the end itself is tested in tests/scruble/test_game.py."""
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
