"""Make the leave table of the ``equity`` crossword AI by self-play (writes ``leaves_<tiles>.json``).

Method: play ``--games`` seeded games between two ``score`` AIs; after every placement that leaves the
bag non-empty, record the tiles kept (the *leave*) and the score of the same player's next turn. The
leave value is the expected extra score of the next turn over keeping nothing: a ridge least-squares
fit of the next score on an intercept and the features of :class:`kubasolve.games.crossword.ai.LeaveTable`
(count of each tile, repeated tiles, (vowels - consonants)^2). Deterministic for a seed.

    python -m kubasolve.games.crossword.data.make_leaves --games 3000 --seed 1 [--tiles nl] [--lexicon nl]

The shipped ``leaves_nl.json`` records its own command, game count, sample count and run time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kubasolve.games.crossword.ai import VOWELS, LeaveTable, ScorePolicy
from kubasolve.games.crossword.game import Referee, take_from_rack
from kubasolve.games.crossword.layout import BLANK
from kubasolve.games.crossword.rules import CrosswordRules


def features(leave: str, letters: list[str]) -> list[float]:
    counts = Counter(leave)
    vow = sum(n for ch, n in counts.items() if ch in VOWELS)
    con = sum(n for ch, n in counts.items() if ch != BLANK and ch not in VOWELS)
    return [float(counts.get(ch, 0)) for ch in letters] + [float(sum(n - 1 for n in counts.values() if n > 1)), float((vow - con) ** 2)]


def samples(referee: Referee, games: int, seed: int) -> list[tuple[str, int]]:
    """(leave, next-turn score of the same player) over ``games`` self-play games."""
    policy = ScorePolicy()
    out: list[tuple[str, int]] = []
    for g in range(games):
        state = referee.new_game(seed * 1_000_003 + g, 2)
        pending: dict[int, str] = {}
        while not state.over:
            p = state.current
            action = policy.turn(referee, state)
            before = state
            state = referee.apply(state, action)
            entry = next(e for e in reversed(state.log) if e["type"] != "end")
            score = entry["score"] if entry["type"] == "place" else 0
            if p in pending:
                out.append((pending.pop(p), int(score)))
            if action.type == "place" and state.bag and not state.over:
                pending[p] = take_from_rack(before.racks[p], "".join(ch for _, _, ch in action.tiles))
    return out


def fit(data: Sequence[tuple[str, float]], letters: list[str], ridge: float = 1.0) -> LeaveTable:
    distinct: dict[str, int] = {}
    rows = np.array([distinct.setdefault(leave, len(distinct)) for leave, _ in data], np.int64)
    x = np.array([[1.0, *features(leave, letters)] for leave in distinct]).reshape(len(distinct), len(letters) + 3)[rows]
    y = np.array([s for _, s in data], float)
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0  # the intercept (the next score after keeping nothing) is not shrunk and not reported
    coef = np.linalg.solve(x.T @ x + penalty, x.T @ y)[1:]
    tiles = {ch: round(float(v), 3) for ch, v in zip(letters, coef[: len(letters)], strict=True)}
    return LeaveTable(tiles, round(float(coef[-2]), 3), round(float(coef[-1]), 3))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tiles", default="nl")
    ap.add_argument("--lexicon", default="nl")
    ap.add_argument("--out", default=None, help="output file (default data/leaves_<tiles>.json)")
    args = ap.parse_args(argv)
    from kubasolve.lexicon import load_lexicon

    rules = CrosswordRules(tiles=args.tiles)
    referee = Referee(load_lexicon(args.lexicon), rules)
    t0 = time.perf_counter()
    data = samples(referee, args.games, args.seed)
    letters = sorted(referee.tiles.counts, key=lambda ch: (ch == BLANK, ch))
    table = fit(data, letters)
    elapsed = time.perf_counter() - t0
    info = {"command": f"python -m kubasolve.games.crossword.data.make_leaves --games {args.games} --seed {args.seed} "
                       f"--tiles {args.tiles} --lexicon {args.lexicon}",
            "games": args.games, "samples": len(data), "seconds": round(elapsed, 1),
            "mean_next_score": round(float(np.mean([s for _, s in data])), 2)}
    out = Path(args.out) if args.out else Path(__file__).parent / f"leaves_{args.tiles}.json"
    payload = {**LeaveTable(table.tiles, table.duplicate, table.balance).to_dict(), "info": info}
    out.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{out}: {len(data)} samples from {args.games} games in {elapsed:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
