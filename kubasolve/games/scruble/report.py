"""Issue 22's check of Scruble self-play: the word turns that re-scored a slid word and the premium pegs counted twice
for one word (:func:`slid_word_report`), and the game length.

``python -m kubasolve.games.scruble.report RECORDS.jsonl ...`` reads ``kubasolve scruble simulate --records`` files
(the records of ``kubasolve.scale.selfplay.simulate``, replayed through the protocol) or saved games' JSON lines (a
``history`` of turns, the form of ``ScrubleGame.to_dict`` and of older simulate records).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["histories", "main", "slid_word_report"]


def histories(records: Iterable[Mapping[str, Any]], lexicon: Any = None) -> Iterator[list[dict[str, Any]]]:
    """The turn history of each record: its ``history``, or, for a simulate record (``actions``), the history of its
    game played again through the protocol (``lexicon``: the lexicon object for the records' lexicon name)."""
    from kubasolve.games.protocol import load_game

    for rec in records:
        if "history" in rec:
            yield list(rec["history"])
            continue
        game = load_game("scruble", rec.get("rules"), lexicon if lexicon is not None else rec.get("lexicon"))
        state = game.new_game(rec["seed"], rec["players"])
        for _, action in rec["actions"]:
            state = game.apply(state, action)
        yield list(state.native.history)


def slid_word_report(records: Iterable[Mapping[str, Any]], lexicon: Any = None) -> dict[str, Any]:
    """Replay the twists of the records' games (only the cube's geometry is used) and count the word turns whose pegs
    stood in a row on a belt at the start of the turn (a slid or unmoved word, which places no new letter), their
    points, and premium pegs that counted again for a word they counted for."""
    import numpy as np

    from kubasolve.games.scruble.cube import N_CELLS, parse_twists
    from kubasolve.games.scruble.position import apply_twists, placed_new_letter

    out: dict[str, Any] = {"games": 0, "turns": 0, "word_turns": 0, "points": 0, "slid_turns": 0, "slid_points": 0,
                           "premiums_again": 0, "min_turns": None, "max_turns": None}
    for history in histories(records, lexicon):
        pegs = np.arange(N_CELLS)  # peg id (start cell) per cell
        used: set[tuple[int, str]] = set()
        for turn in history:
            after = pegs[apply_twists(np.arange(N_CELLS), parse_twists(turn["twists"]))]
            if "word" in turn:
                cell_of = np.empty(N_CELLS, np.int64)
                cell_of[pegs] = np.arange(N_CELLS)  # where each peg stood at the start of the turn
                out["word_turns"] += 1
                out["points"] += turn["score"]
                if not placed_new_letter(cell_of[after], turn["cells"]):
                    out["slid_turns"] += 1
                    out["slid_points"] += turn["score"]
                for cell in turn["breakdown"]["premium_cells"]:
                    key = (int(after[cell]), turn["word"])
                    out["premiums_again"] += key in used
                    used.add(key)
            pegs = after
        n = len(history)
        out["games"] += 1
        out["turns"] += n
        out["min_turns"] = n if out["min_turns"] is None else min(out["min_turns"], n)
        out["max_turns"] = n if out["max_turns"] is None else max(out["max_turns"], n)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Print :func:`slid_word_report` of each records file named on the command line."""
    import json
    import sys

    for path in (sys.argv[1:] if argv is None else argv):
        with open(path, encoding="utf-8") as f:
            r = slid_word_report(json.loads(line) for line in f if line.strip())
        share = 100 * r["slid_turns"] / max(1, r["word_turns"])
        print(f"{path}: {r['games']} games, {r['turns'] / max(1, r['games']):.1f} turns a game ({r['min_turns']}-"
              f"{r['max_turns']}); {r['slid_turns']} of {r['word_turns']} word turns ({share:.1f}%) re-scored a slid word, "
              f"{r['slid_points']:,} of {r['points']:,} points; premium pegs counted again for a word: {r['premiums_again']}")


if __name__ == "__main__":
    main()
