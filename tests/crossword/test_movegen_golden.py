"""Golden positions (wolges on the bundled nl list, see data/PROVENANCE.md): every record's move count,
score histogram over all moves, top-30 scores and best score must match exactly."""

from __future__ import annotations

from collections import Counter

import pytest

from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.movegen import best_move, generate_moves, move_arrays


def test_golden_file_is_complete(golden_records):
    assert len(golden_records) == 105
    assert {r["phase"] for r in golden_records} == {"opening", "early", "mid", "late"}
    assert Counter(r["blanks_on_rack"] for r in golden_records) == {0: 50, 1: 31, 2: 24}


def test_every_golden_position(golden_records, nl_lexicon, standard_layout, nl_tiles):
    failures = []
    for rec in golden_records:
        board = Board.from_rows(rec["board"], nl_lexicon.alphabet)
        meta, _ = move_arrays(board, rec["rack"], nl_lexicon, standard_layout, nl_tiles)
        hist = Counter(int(s) for s in meta[:, 3])
        want = {int(k): v for k, v in rec["score_hist"].items()}
        best = best_move(board, rec["rack"], nl_lexicon, standard_layout, nl_tiles)
        got = (len(meta), hist, best.score if best else None)
        if got != (rec["num_moves"], want, rec["max_score"]):
            failures.append((rec["id"], rec["rack"], got[0], rec["num_moves"], got[2], rec["max_score"]))
    assert not failures, failures


@pytest.mark.parametrize("index", [0, 20, 40, 60, 80, 104])
def test_golden_top_moves(golden_records, nl_lexicon, standard_layout, nl_tiles, index):
    rec = golden_records[index]
    board = Board.from_rows(rec["board"], nl_lexicon.alphabet)
    top = generate_moves(board, rec["rack"], nl_lexicon, standard_layout, nl_tiles, top=30)
    assert top.count == rec["num_moves"]
    assert [m.score for m in top.moves] == [m["score"] for m in rec["top"]]
    cutoff = rec["top_cutoff_score"]
    ours = {(m.row, m.col, m.direction, m.word, m.played, m.score) for m in top.moves if m.score > cutoff}
    theirs = {(m["row"], m["col"], m["dir"], m["word"], m["played"], m["score"]) for m in rec["top"] if m["score"] > cutoff}
    assert ours == theirs
    for ours_m, theirs_m in zip(top.moves, rec["top"], strict=True):
        if ours_m.score > cutoff:
            assert ours_m.to_dict()["tiles"] == theirs_m["tiles"]
