"""Tests of Kubagram's equipment: the cube set, the default Dutch set and the marked board (issue 4, part 1)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tomllib
from contextlib import redirect_stdout
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.errors import RulesError
from kubasolve.games.kubagram.equipment import (
    DEFAULT_ALPHABET,
    ROTATIONS,
    BoardLayout,
    Cube,
    CubeSet,
    Square,
    rotate_position,
    rotated_shape,
)

DATA = resources.files("kubasolve.games.kubagram.data")
WORDLIST = Path("/tmp/wdutch/usr/share/dict/dutch")
VOWELS = set("aeiou")
RARE = set("cjqxyz")
# Documented tolerance (docs/kubagram_set.md): every letter's count on the 315 normal-cube slots is within
# 1.5 slots of its target 315 x share, and the vowel share within 1 percentage point of the target.
SLOT_TOLERANCE = 1.5
VOWEL_TOLERANCE = 0.01


def cubes_toml() -> dict:
    return tomllib.loads(DATA.joinpath("cubes_nl.toml").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------- default cube set


def test_default_set_has_105_normal_cubes_and_the_three_jokers() -> None:
    """Rule: "105 normal cubes of 3 letters (each letter on two opposite faces) and the 3 jokers"
    (EYGR, PLTOLE with five distinct letters p,l,t,o,e, ODRKTE)."""
    cs = CubeSet.default_nl()
    assert len(cs) == 108
    assert len(cs.normal) == 105
    assert [j.letters for j in cs.jokers] == ["eygr", "pltole", "odrkte"]
    assert all(j.is_joker for j in cs.jokers)
    assert cs.jokers[1].top_letters == ("p", "l", "t", "o", "e")
    assert cs.jokers[0].top_letters == ("e", "y", "g", "r")
    assert len(cs.jokers[2].top_letters) == 6


def test_default_normal_cubes_have_three_distinct_letters_on_opposite_faces() -> None:
    """Rule: "normal cubes of 3 letters (each letter on two opposite faces)"."""
    for cube in CubeSet.default_nl().normal:
        assert len(cube.letters) == 3 and len(set(cube.letters)) == 3
        faces = cube.faces
        assert len(faces) == 6
        assert all(faces[i] == faces[i + 3] for i in range(3))
        assert set(cube.top_letters) == set(cube.letters)


def test_default_letter_frequencies_within_tolerance_of_dutch_targets() -> None:
    """Rule: "a documented default Dutch cube set ... chosen so that letter frequencies suit Dutch words"."""
    data = cubes_toml()
    share = data["meta"]["target_share"]
    slots = data["meta"]["slots"]
    assert slots == 315
    assert sum(share.values()) == pytest.approx(1.0, abs=1e-4)
    counts = CubeSet.default_nl().letter_counts()
    assert sum(counts.values()) == 315
    for letter in DEFAULT_ALPHABET:
        assert abs(counts[letter] - slots * share[letter]) <= SLOT_TOLERANCE, letter
    # Dutch sanity, independent of the stored targets: e is by far the most common letter, n/a/r/t follow
    assert max(counts, key=counts.get) == "e"
    assert counts["e"] > 2 * max(v for k, v in counts.items() if k != "e")
    top6 = sorted(counts, key=lambda c: -counts[c])[:6]
    assert set(top6) <= set("enartoi")


def test_default_set_has_enough_vowels() -> None:
    """Rule: "letter frequencies suit Dutch words" (vowels enough): vowel share matches Dutch, every cube has one."""
    data = cubes_toml()
    target = sum(data["meta"]["target_share"][v] for v in VOWELS)
    counts = CubeSet.default_nl().letter_counts()
    share = sum(counts[v] for v in VOWELS) / 315
    assert abs(share - target) <= VOWEL_TOLERANCE
    assert 0.35 <= share <= 0.42
    for cube in CubeSet.default_nl().normal:
        n_vowels = len(set(cube.letters) & VOWELS)
        assert 1 <= n_vowels <= 2, cube  # a vowel and a consonant on every cube


def test_default_set_rare_letters_sensible() -> None:
    """Rule: rare letters (q, x, y, z, c, j) appear sensibly: present, never two on a cube, not beside their partner."""
    cs = CubeSet.default_nl()
    counts = cs.letter_counts()
    assert all(counts[ch] >= 1 for ch in RARE)
    assert counts["q"] == counts["x"] == 1
    assert cs.letter_counts(include_jokers=True)["y"] == 2  # one normal cube + the EYGR joker
    for cube in cs.normal:
        letters = set(cube.letters)
        assert len(letters & RARE) <= 1, cube
        # letters often needed together must sit on different cubes
        for pair in ("qu", "ij", "ch"):
            assert not set(pair) <= letters, (cube, pair)


def test_default_set_is_varied() -> None:
    """The generator spreads letter pairs: no cube occurs more than twice in the default set."""
    from collections import Counter

    dup = Counter(c.letters for c in CubeSet.default_nl().normal)
    assert max(dup.values()) <= 2


def test_header_table_documents_the_actual_counts() -> None:
    """Rule: "document the method and the resulting counts in the file header" (header must match the data)."""
    text = DATA.joinpath("cubes_nl.toml").read_text(encoding="utf-8")
    rows = re.findall(r"^#\s+([a-z])\s+([\d.]+)\s+([\d.]+)\s+(\d+)", text, flags=re.MULTILINE)
    assert len(rows) == 26
    counts = CubeSet.default_nl().letter_counts()
    share = cubes_toml()["meta"]["target_share"]
    for letter, pct, _target, count in rows:
        assert int(count) == counts[letter], letter
        assert float(pct) == pytest.approx(100 * share[letter], abs=0.006)


def test_docs_table_matches_the_default_set() -> None:
    """The letter-count table in docs/kubagram_set.md matches the shipped set."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "kubagram_set.md"
    rows = re.findall(r"^\|\s*([a-z])\s*\|\s*[\d.]+\s*\|\s*[\d.]+\s*\|\s*(\d+)\s*\|", doc.read_text("utf-8"), re.MULTILINE)
    counts = CubeSet.default_nl().letter_counts()
    assert len(rows) == 26
    assert {k: int(v) for k, v in rows} == counts


@pytest.mark.slow
@pytest.mark.skipif(not WORDLIST.exists(), reason="OpenTaal word list not installed (development only)")
def test_generator_reproduces_committed_file() -> None:
    """Rule: "Write the generator as a reproducible script" (it regenerates the committed TOML byte for byte)."""
    from kubasolve.games.kubagram.data import make_default_set

    out = io.StringIO()
    with redirect_stdout(out):
        assert make_default_set.main([str(WORDLIST)]) == 0
    assert out.getvalue() == DATA.joinpath("cubes_nl.toml").read_text(encoding="utf-8")


def test_import_is_light() -> None:
    """Standard: "Keep import kubasolve light (no data loaded at import)"."""
    code = (
        "import sys, kubasolve, kubasolve.games.kubagram.equipment as e;"
        "print(e._read_package_toml.cache_info().currsize, 'kubasolve.games.kubagram.setup' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False"]


# ------------------------------------------------------------------------------------------------ user cube sets


def small_set_toml(normal: list[str], jokers: list[str] | None = None, extra: str = "") -> str:
    jokers = [] if jokers is None else jokers
    return f"normal = {normal!r}\njokers = {jokers!r}\n{extra}".replace("'", '"')


def test_user_set_loads_from_text_and_path(tmp_path: Path) -> None:
    """Rule: "let users load their own physical set" (from TOML text or a file path)."""
    text = small_set_toml(["ABC", "dEf"], ["pltole"], 'name = "mine"\ncount = 3\n')
    from_text = CubeSet.from_toml(text)
    assert [c.letters for c in from_text] == ["abc", "def", "pltole"]
    assert from_text.name == "mine"
    f = tmp_path / "set.toml"
    f.write_text(text, encoding="utf-8")
    assert CubeSet.from_toml(f) == from_text
    assert CubeSet.from_toml(str(f)) == from_text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (small_set_toml(["abc", "def"], extra="count = 3\n"), "declares count = 3 but has 2 cubes"),
        (small_set_toml(["abc", "d1f"]), "'1' is not a letter"),
        (small_set_toml(["abc", "dfd"]), "must be different, 'd' repeats"),
        (small_set_toml(["abc", "de"]), "exactly 3 letters, got 2"),
        (small_set_toml(["abc", "defg"]), "exactly 3 letters, got 4"),
        (small_set_toml(["abc", "déf"]), "'é' is not in the alphabet"),
        (small_set_toml(["abc"], extra='alphabet = "abcdef"\n') + "", None),
        (small_set_toml(["abc", "xyz"], extra='alphabet = "abcdef"\n'), "'x' is not in the alphabet 'abcdef'"),
        (small_set_toml(["abc"], ["aa"]), "at least 2 different letters"),
        (small_set_toml(["abc"], ["abcdefg"]), "6 faces, got 7 letters"),
        (small_set_toml(["abc"], extra="colour = 1\n"), "unknown key(s) colour"),
        ("jokers = []\n", "no 'normal' list"),
        ('normal = "abc"\n', "must be a list of letter strings"),
        ("normal = []\n", "at least one cube"),
        ("normal = [\"abc\"\n", "invalid TOML"),
        (small_set_toml(["abc"], extra='alphabet = "abca"\n'), "alphabet repeats"),
        (small_set_toml(["abc"], extra="count = true\n"), "'count' must be a positive integer"),
    ],
)
def test_invalid_sets_raise_clear_rules_errors(text: str, message: str | None) -> None:
    """Rule: "validation with clear RulesError messages: wrong count, non-letter, duplicate letters on a normal
    cube, letters outside an alphabet"."""
    if message is None:
        assert len(CubeSet.from_toml(text)) == 1
        return
    with pytest.raises(RulesError, match=re.escape(message)):
        CubeSet.from_toml(text)


def test_error_names_the_offending_cube() -> None:
    """A validation error says which cube is wrong, so a user can fix a 105-cube file."""
    with pytest.raises(RulesError, match=r"normal\[1\]: normal cube 'aab'"):
        CubeSet.from_toml(small_set_toml(["abc", "aab"]))


def test_missing_file_is_a_rules_error(tmp_path: Path) -> None:
    """A missing set file is a user mistake: RulesError, not FileNotFoundError."""
    with pytest.raises(RulesError, match="file not found"):
        CubeSet.from_toml(tmp_path / "nope.toml")


def test_cube_direct_validation() -> None:
    """Cube itself refuses bad letters, so no invalid cube can exist."""
    assert Cube("XYZ").letters == "xyz"
    with pytest.raises(RulesError, match="not a letter"):
        Cube("a b")
    with pytest.raises(RulesError, match="empty"):
        Cube("")
    with pytest.raises(RulesError, match="True or False"):
        Cube("abc", 1)  # type: ignore[arg-type]


letters3 = st.lists(st.sampled_from(DEFAULT_ALPHABET), min_size=3, max_size=3, unique=True).map("".join)
joker = st.lists(st.sampled_from(DEFAULT_ALPHABET), min_size=2, max_size=6).filter(lambda x: len(set(x)) >= 2)


@settings(max_examples=40, deadline=None)
@given(normal=st.lists(letters3, min_size=1, max_size=20), jokers=st.lists(joker.map("".join), max_size=3))
def test_user_set_toml_round_trip(normal: list[str], jokers: list[str]) -> None:
    """Any valid set written with to_toml reads back equal, cube order (= cube index) preserved."""
    cs = CubeSet.from_letters(normal, jokers, name='my "set"')
    back = CubeSet.from_toml(cs.to_toml())
    assert back == cs
    assert [c.letters for c in back] == normal + jokers
    assert sum(back.letter_counts().values()) == 3 * len(normal)


# --------------------------------------------------------------------------------------------------------- board


def test_square_markings() -> None:
    """Rule: "each marked I, III or 0"."""
    assert [Square.parse(t) for t in ("I", "III", "0")] == [Square.I, Square.III, Square.ZERO]
    assert [s.strokes for s in Square] == [1, 3, 0]
    with pytest.raises(RulesError, match="unknown square marking 'II'"):
        Square.parse("II")


def test_default_board_is_9_by_12_with_documented_counts() -> None:
    """Rule: "Board of 108 squares (default 9 rows x 12 columns ...), each marked I, III or 0" (84/18/6)."""
    b = BoardLayout.default()
    assert (b.rows, b.cols, b.n_squares) == (9, 12, 108)
    assert b.counts() == {Square.I: 84, Square.III: 18, Square.ZERO: 6}
    assert b.n_squares == len(CubeSet.default_nl())


def test_default_board_properties_documented_in_header() -> None:
    """The layout is spread out (no two marked squares share a side, 2-4 per row) and point-symmetric."""
    b = BoardLayout.default()
    assert b.rotated(180) == b
    for r in range(b.rows):
        assert 2 <= sum(b[r, c] != Square.I for c in range(b.cols)) <= 4
        for c in range(b.cols):
            if b[r, c] != Square.I:
                if c + 1 < b.cols:
                    assert b[r, c + 1] == Square.I
                if r + 1 < b.rows:
                    assert b[r + 1, c] == Square.I
    for c in range(b.cols):
        assert 1 <= sum(b[r, c] != Square.I for r in range(b.rows)) <= 3


def test_board_size_is_configurable(tmp_path: Path) -> None:
    """Rule: "Board of 108 squares (default 9 rows x 12 columns, configurable)"."""
    text = 'rows = 2\ncols = 3\nmarkings = ["I III 0", ["0", "I", "I"]]\n'
    b = BoardLayout.from_toml(text)
    assert (b.rows, b.cols) == (2, 3)
    assert b[0, 1] == Square.III and b[1, 0] == Square.ZERO
    assert BoardLayout.from_toml(b.to_toml()) == b
    f = tmp_path / "b.toml"
    f.write_text(text, encoding="utf-8")
    assert BoardLayout.from_toml(f) == b
    assert BoardLayout.uniform(4, 27).n_squares == 108
    assert BoardLayout.from_toml(BoardLayout.default().to_toml()) == BoardLayout.default()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('rows = 2\ncols = 3\nmarkings = ["I I I", "I I"]\n', "row 1 has 2 squares, row 0 has 3"),
        ('rows = 1\ncols = 3\nmarkings = ["I II I"]\n', "row 0, col 1: unknown square marking 'II'"),
        ('rows = 2\ncols = 3\nmarkings = ["I I I"]\n', "declares rows = 2, cols = 3 but its markings are 1 rows of 3"),
        ('cols = 3\nmarkings = ["I I I"]\n', "has no 'rows'"),
        ('rows = 1\ncols = 1\nmarkings = ["I"]\nsize = 3\n', "unknown key(s) size"),
        ('rows = 1\ncols = 1\nmarkings = "I"\n', "must be a list of rows"),
        ("rows = 1\ncols = 1\nmarkings = []\n", "at least one row"),
    ],
)
def test_invalid_layouts_raise_clear_rules_errors(text: str, message: str) -> None:
    """Layout validation: rows x cols must match the markings, markings must be I, III or 0."""
    with pytest.raises(RulesError, match=re.escape(message)):
        BoardLayout.from_toml(text)


def test_layout_constructor_validation() -> None:
    """BoardLayout refuses non-positive sizes and a wrong number of markings."""
    with pytest.raises(RulesError, match="rows must be a positive integer"):
        BoardLayout(0, 3, ())
    with pytest.raises(RulesError, match="needs 6 markings, got 5"):
        BoardLayout(2, 3, (Square.I,) * 5)
    with pytest.raises(RulesError, match="off a 9 x 12 board"):
        BoardLayout.default()[9, 0]
    with pytest.raises(RulesError, match="not a string"):
        BoardLayout(1, 3, "III")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="sequence of Cube"):
        CubeSet("abc")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="cube 1 is not a Cube"):
        CubeSet((Cube("abc"), "def"))  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 12), cols=st.integers(1, 12), data=st.data())
def test_rotation_geometry(rows: int, cols: int, data: st.DataObject) -> None:
    """Turning the board: quarter turns swap rows/cols, four quarter turns are the identity, positions stay on board."""
    r = data.draw(st.integers(0, rows - 1))
    c = data.draw(st.integers(0, cols - 1))
    pos, shape = (r, c), (rows, cols)
    for _ in range(4):
        nr, nc = rotate_position(*pos, *shape, 90)
        shape = rotated_shape(*shape, 90)
        assert 0 <= nr < shape[0] and 0 <= nc < shape[1]
        pos = (nr, nc)
    assert pos == (r, c) and shape == (rows, cols)
    deg = data.draw(st.sampled_from(ROTATIONS))
    two_steps = rotate_position(*rotate_position(r, c, rows, cols, deg), *rotated_shape(rows, cols, deg), 90)
    assert two_steps == rotate_position(r, c, rows, cols, (deg + 90) % 360)
    with pytest.raises(RulesError, match="0, 90, 180, 270"):
        rotated_shape(rows, cols, 45)


def test_rotated_layout_moves_markings_with_the_board() -> None:
    """A 90-degree clockwise turn puts the old bottom-left square at the top-left."""
    b = BoardLayout.from_rows(["I I III", "0 I I"])  # 2 x 3
    t = b.rotated(90)
    assert (t.rows, t.cols) == (3, 2)
    assert t[0, 0] == Square.ZERO and t[2, 1] == Square.III
    assert t.rotated(270) == b
