"""Cube geometry, twist notation and the 96-character state notation."""

from __future__ import annotations

import numpy as np
import pytest

from kubasolve.games.scruble.cube import FACES, N_CELLS, NotationError, Twist, geometry, parse_twist, parse_twists
from kubasolve.games.scruble.position import Cube, apply_twists
from kubasolve.games.scruble.rules import ScrubleRules

SOLVED = Cube(tuple(f for f in FACES for _ in range(16)))


def test_every_twist_is_a_permutation_of_order_four():
    g = geometry()
    for t in range(36):
        p = g.twist_perm[t]
        assert sorted(p) == list(range(N_CELLS))
        q = np.arange(N_CELLS)
        for _ in range(4):
            q = q[g.twist_perm[Twist(t // 3, 1).index]]
        assert (q == np.arange(N_CELLS)).all()


def test_r_moves_the_front_right_column_up():
    after = SOLVED.twisted("R")
    # U's right column (col 4) now holds F's right column; R face itself stays R
    assert [after.symbols[4 * r + 3] for r in range(4)] == ["F"] * 4
    assert after.symbols[16:32] == ("R",) * 16
    assert SOLVED.twisted("R R'") == SOLVED
    assert SOLVED.twisted("R2") == SOLVED.twisted("R R")


def test_u_moves_front_to_left_and_inner_slices_leave_faces():
    after = SOLVED.twisted("U")
    assert after.symbols[64:68] == ("F",) * 4  # L's top row holds the old front row
    inner = SOLVED.twisted("2R")
    assert inner.symbols[16:32] == ("R",) * 16 and inner.symbols[80:96] != ("B",) * 16


def test_belts_ring_16_cells_and_every_cell_is_on_two():
    g = geometry()
    assert g.belt_cells.shape == (12, 16)
    counts = np.bincount(g.belt_cells.ravel(), minlength=N_CELLS)
    assert (counts == 2).all()
    for b in range(12):  # each belt crosses 4 faces, 4 cells each, starting on a face edge
        faces = [int(g.cell_face[c]) for c in g.belt_cells[b]]
        assert len(set(faces)) == 4 and all(faces[4 * k:4 * k + 4] == [faces[4 * k]] * 4 for k in range(4))
    # forward reading: a horizontal belt reads F left to right
    assert list(g.belt_cells[7][:4]) == [32, 33, 34, 35]


def test_notation_round_trips():
    for t in range(36):
        tw = Twist.from_index(t)
        assert parse_twist(tw.notation()) == [tw]
    assert parse_twist("r") == parse_twist("2R")
    assert parse_twist("Rw") == parse_twist("R") + parse_twist("2R")
    assert parse_twist("3R") == [Twist(1, 1)]  # the slice next to L, turned like R
    assert parse_twists("R U' 2F2") == parse_twists(["R", "U'", "2F2"])
    for bad in ["X", "R3", "4R", "1R", "", "2r", "R''", "\uff12R"]:
        with pytest.raises(NotationError, match="bad twist notation"):
            parse_twists(bad) if bad else parse_twist(bad)


def test_wide_moves_follow_wca_notation():
    """WCA: nRw turns the n layers on the R side (Rw = 2Rw: two, 3Rw: three), each a twist of this game."""
    assert parse_twist("Rw") == parse_twist("2Rw") == parse_twist("R") + parse_twist("2R")
    assert parse_twist("3Rw") == parse_twist("R") + parse_twist("2R") + parse_twist("3R")
    assert parse_twist("3Lw") == parse_twist("L") + parse_twist("2L") + parse_twist("3L")
    assert parse_twist("3Uw'") == parse_twist("U'") + parse_twist("2U'") + parse_twist("3U'")
    assert parse_twist("3Fw2") == parse_twist("F2") + parse_twist("2F2") + parse_twist("3F2")
    # 3Rw leaves only the L layer: the same cube as turning L the other way round (a whole-cube rotation apart)
    assert SOLVED.twisted("3Rw").symbols[64:80] == SOLVED.symbols[64:80]
    assert SOLVED.twisted("3Rw") != SOLVED.twisted("Rw")
    with pytest.raises(NotationError, match="whole cube"):
        parse_twist("4Rw")
    with pytest.raises(NotationError, match="2 or 3 layers"):
        parse_twist("1Rw")
    with pytest.raises(NotationError, match="inner slice 2R"):
        parse_twist("3r")


def test_lower_case_r_is_the_inner_slice_here():
    """``r`` = ``2R`` in this notation (docs/scruble.md says so: most cubers read ``r`` as ``Rw``)."""
    assert parse_twist("r") == parse_twist("2R") != parse_twist("Rw")
    assert parse_twist("u'") == parse_twist("2U'")


def test_state_notation_round_trips_and_refuses_bad_input():
    rules = ScrubleRules()
    cube = Cube.scrambled(rules.pegs, 3)
    text = cube.notation()
    assert len(text) == 96 and Cube.from_notation(text, rules.pegs) == cube
    assert Cube.from_notation(cube.notation(faces_separated=True).lower(), rules.pegs) == cube
    with pytest.raises(NotationError, match="96 symbols"):
        Cube.from_notation(text[:-1])
    with pytest.raises(NotationError, match="neither a letter"):
        Cube.from_notation("@" + text[1:])
    with pytest.raises(NotationError, match="alphabet"):
        Cube.from_notation("Ñ" + text[1:], rules.pegs)


def test_scramble_is_seeded_and_uses_every_peg():
    rules = ScrubleRules()
    a, b = Cube.scrambled(rules.pegs, 11), Cube.scrambled(rules.pegs, 11)
    assert a == b != Cube.scrambled(rules.pegs, 12)
    assert sorted(a.symbols) == sorted(rules.pegs.symbols())


def test_apply_twists_composes():
    seq = parse_twists("R U 2F' L2")
    o = apply_twists(np.arange(N_CELLS), seq)
    assert SOLVED.twisted(seq) == Cube(tuple(SOLVED.symbols[i] for i in o))
