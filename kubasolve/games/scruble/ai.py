"""Scruble Cube AIs: ``greedy`` (best word within its twist budget) and ``planner`` (also weighs
the best word the next player can reach from the cube it hands over).

Planner. Scruble is a race to the target score in which the cube passes from player to player, so
a word is worth its points minus what it hands over. The planner

1. takes the ``candidates`` best words within its twist budget (``search``, one entry per word)
   and, for a word that needs fewer twists than the budget, also every way to spend the remaining
   twist without touching the word or its end cells: the same word, another cube handed over;
2. groups them by the cube handed over (keeping the best own score for each);
3. values each as ``own score - the next player's best reply`` within the reply depth (the
   opponent's own budget, 2 twists by default), searched on the handed-over cube with the crossing
   words that will be intact then (so a reply that crosses the planner's fresh word counts it
   again) and the premium pegs spent then (its own word's included). A reply that takes the next
   player past the target score ends the game with that player ahead: such a candidate is a loss
   and ranks below every other one;
4. skips the reply when there is none that matters: its word ends the game (takes it past the
   target) or this is the game's last turn; then it simply plays the best word.

The reply search is the expensive part (~10-20 ms per cube) and is bounded: the best reply within
one twist is a cheap lower bound (the depth-1 states are a subset of the depth-2 ones), so the
candidates are taken in the order of ``own - that bound`` and the loop ends when the bound cannot
beat the best value found; a reply search stops early (``stop_at``) once it finds a reply that
refutes the candidate, and at most ``max_replies`` full reply searches are made per turn.

Budget. Both AIs take an optional :class:`StateBudget` (``movetime_ms``, ``max_nodes``) shared by all the
searches of the turn. The planner checks it before each bound and reply search and stops when it runs out:
it plays the best candidate whose reply search finished (a reply search the budget cut is not counted: its
reply may be too low), or, if none finished, the candidate with the best cheap bound (a candidate without a
computed bound is bounded by its own score), or the best word found. Greedy plays the best word of the states
its search expanded. A node budget alone is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from kubasolve.errors import RulesError
from kubasolve.games.scruble.cube import N_CELLS, N_TWISTS, Twist, geometry
from kubasolve.games.scruble.game import ScrubleGame, Turn, spent_by, spent_in_cells
from kubasolve.games.scruble.position import Cube, EarlierWord, SpentPremium, apply_twists, plain_points, score_run
from kubasolve.games.scruble.solver import StateBudget, WordMove, search
from kubasolve.lexicon import Lexicon


class Policy(Protocol):
    """An AI: the turn it plays for the player to move; ``work`` bounds its searches (None: unbounded)."""

    def __call__(self, game: ScrubleGame, lexicon: Lexicon, work: StateBudget | None = None) -> Turn: ...


POLICIES = ("random", "greedy", "planner")
LOSS = 1_000_000
"""Penalty of a candidate whose reply takes the next player past the target score (that player wins)."""


def _depth(game: ScrubleGame, budget: int) -> int:
    return min(game.rules.max_twists, budget)


def _as_turn(move: WordMove) -> Turn:
    return Turn(tuple(move.notation()), move.word, move.cells)


def _tell_best(work: StateBudget | None, turn: Turn, value: int) -> None:
    """Give the turn's budget the AI's best turn so far (the engine's progress ``best``), as a protocol action."""
    if work is not None and work.progress is not None:
        from kubasolve.games.scruble.protocol import action_text, turn_action

        action = turn_action(turn)
        work.report({"action": action, "text": action_text(action), "value": value})


def _fallback(game: ScrubleGame, rng: np.random.Generator) -> Turn:
    return Turn((Twist.from_index(int(rng.integers(36))).notation(),))


GREEDY_DEPTH = 2
"""Twists the ``greedy`` AI searches (at most the rules' ``max_twists``)."""


def greedy(budget: int = GREEDY_DEPTH, seed: int = 0) -> Policy:
    """Best-scoring word within ``budget`` twists (a random twist if none)."""
    rng = np.random.default_rng(seed)

    def policy(game: ScrubleGame, lexicon: Lexicon, work: StateBudget | None = None) -> Turn:
        moves, _ = search(game.cube, lexicon, game.rules, _depth(game, budget), 1, game.intact_words(), budget=work,
                          spent=game.spent_premiums())
        if moves:
            _tell_best(work, _as_turn(moves[0]), moves[0].score)
        return _as_turn(moves[0]) if moves else _fallback(game, rng)

    return policy


@dataclass(frozen=True)
class Candidate:
    """A word to play and the twists before it (which fix the cube handed over)."""

    move: WordMove
    twists: tuple[Twist, ...]
    own: int
    after: Cube
    earlier_after: tuple[EarlierWord, ...]
    spent_after: tuple[SpentPremium, ...] = ()

    def turn(self) -> Turn:
        return Turn(tuple(t.notation() for t in self.twists), self.move.word, self.move.cells)


def handed_over(game: ScrubleGame, moves: Sequence[WordMove], depth: int,
                work: StateBudget | None = None) -> list[Candidate]:
    """One candidate per distinct cube handed over (its best own score): each move as found, and a
    move with fewer than ``depth`` twists followed by any twist that leaves the word's cells and its
    two end cells alone (rescored, since a crossed earlier word may be broken by it). ``work``: once
    the budget runs out, the moves not yet taken are left out (the first always gives a candidate)."""
    g = geometry()
    earlier, spent = game.intact_words(), game.spent_premiums()
    best: dict[tuple[str, ...], Candidate] = {}
    for n, m in enumerate(moves):
        if n > 0 and work is not None and work.out_of_time():
            break
        seqs = [m.twists]
        if len(m.twists) < depth:
            keep = list(m.cells) + [c for c in m.run.neighbours() if c is not None]
            for t in range(N_TWISTS):
                if not g.twist_changed[t, keep].any():
                    seqs.append(m.twists + (Twist.from_index(t),))
        for seq in seqs:
            origin = apply_twists(np.arange(N_CELLS), seq)
            after = Cube(tuple(game.cube.symbols[o] for o in origin))
            if seq is m.twists:
                b = m.breakdown
            else:
                rescored = score_run(after.symbols, origin, m.run, m.word, game.rules, earlier, spent)
                if rescored is None:  # pragma: no cover - the word's cells are untouched
                    continue
                b = rescored
            own = b.score
            key = after.symbols
            if key in best and best[key].own >= own:
                continue
            pegs = game.pegs[origin]
            intact = [w for w, ids in game.words if all(int(pegs[c]) == i for c, i in zip(w.cells, ids))]
            intact.append(EarlierWord(m.word, m.cells, m.run.belt, plain_points(after.symbols, m.cells, game.rules)))
            spent_after = spent_in_cells(game.spent + spent_by(b, m.word, m.cells, pegs), pegs)
            best[key] = Candidate(m, seq, own, after, tuple(intact), tuple(spent_after))
    return sorted(best.values(), key=lambda c: (-c.own, len(c.twists), c.move.word))


def reply_value(own: int, reply: int, to_target: int) -> int:
    """Own score - the next player's reply, minus :data:`LOSS` if the reply scores ``to_target`` (the points
    that take the next player past the target score) or more."""
    return own - reply - (LOSS if reply >= to_target else 0)


def plan(game: ScrubleGame, lexicon: Lexicon, budget: int = 2, candidates: int = 48, reply_depth: int = 2,
         max_replies: int = 64, work: StateBudget | None = None) -> tuple[Candidate, int] | None:
    """The planner's choice among :func:`handed_over` candidates and its value (``own - reply``,
    :func:`reply_value`), or None when the planner plays the best word outright (no word, solo,
    the game's last turn, the best word takes the player past the target, or the budget ran out in the first
    search). ``work``: the turn's budget; when it runs out the choice is the best evaluated so far
    (see the module doc), and if no reply search finished, the value is the chosen candidate's bound."""
    return _plan(game, lexicon, budget, candidates, reply_depth, max_replies, work)[0]


def _plan(game: ScrubleGame, lexicon: Lexicon, budget: int, candidates: int, reply_depth: int, max_replies: int,
          work: StateBudget | None) -> tuple[tuple[Candidate, int] | None, list[WordMove]]:
    """:func:`plan`, and the best words it searched (for a caller that plays the best word outright)."""
    rules = game.rules
    depth = _depth(game, budget)
    moves, _ = search(game.cube, lexicon, rules, depth, candidates, game.intact_words(), budget=work,
                      spent=game.spent_premiums())
    me = game.to_move
    if moves:
        _tell_best(work, _as_turn(moves[0]), moves[0].score)
    if (not moves or game.players == 1 or game.turn + 1 >= rules.rounds * game.players
            or game.scores[me] + moves[0].score > rules.target_score):
        return None, moves
    if work is not None and work.out_of_time():  # nothing left to weigh replies with: the best word
        return None, moves
    to_target = rules.target_score + 1 - game.scores[(me + 1) % game.players]  # the game ends past the target
    rdepth = _depth(game, reply_depth)
    cands = handed_over(game, moves, depth, work)
    bounds = [reply_value(c.own, 0, to_target) for c in cands]  # no reply found yet: a valid upper bound
    for i, c in enumerate(cands):
        if work is not None and work.out_of_time():
            break
        low, _ = search(c.after, lexicon, rules, min(1, rdepth), 1, c.earlier_after, budget=work, spent=c.spent_after)
        bounds[i] = reply_value(c.own, low[0].score if low else 0, to_target)  # a cut search: still an upper bound
    order = sorted(range(len(cands)), key=lambda i: (-bounds[i], -cands[i].own, len(cands[i].twists)))
    best_i, best_v = order[0], None
    for n, i in enumerate(order):
        if n >= max_replies or (best_v is not None and bounds[i] <= best_v):
            break
        if work is not None and work.out_of_time():
            break
        c = cands[i]
        stop = -1
        if best_v is not None and best_v > -LOSS // 2:
            stop = max(0, min(c.own - best_v, to_target))  # a reply this high cannot beat best_v
        reply, stats = search(c.after, lexicon, rules, rdepth, 1, c.earlier_after, stop_at=stop, budget=work,
                              spent=c.spent_after)
        if not stats.complete and not stats.stopped:  # the budget cut it: its reply may be too low
            break
        v = reply_value(c.own, reply[0].score if reply else 0, to_target)
        if best_v is None or v > best_v:
            best_i, best_v = i, v
            _tell_best(work, c.turn(), v)
    if best_v is None:  # the budget ran out before any reply search finished: the best bound
        best_v = bounds[best_i]
    return (cands[best_i], best_v), moves


def planner(budget: int = 2, candidates: int = 48, reply_depth: int = 2, max_replies: int = 64,
            seed: int = 0) -> Policy:
    """The candidate that maximises own score - the next player's best reply (see the module doc)."""
    rng = np.random.default_rng(seed)

    def policy(game: ScrubleGame, lexicon: Lexicon, work: StateBudget | None = None) -> Turn:
        choice, moves = _plan(game, lexicon, budget, candidates, reply_depth, max_replies, work)
        if choice is not None:
            return choice[0].turn()
        best, stats = search(game.cube, lexicon, game.rules, _depth(game, budget), 1, game.intact_words(), budget=work,
                             spent=game.spent_premiums())
        if not stats.complete:  # the budget cut it: the better of its word and the first search's best
            best = sorted(best + moves[:1], key=WordMove.sort_key)[:1]
        return _as_turn(best[0]) if best else _fallback(game, rng)

    return policy


def random_policy(seed: int = 0) -> Policy:
    """A random twist and no word: the baseline every AI must beat."""
    rng = np.random.default_rng(seed)

    def policy(game: ScrubleGame, lexicon: Lexicon, work: StateBudget | None = None) -> Turn:
        return _fallback(game, rng)

    return policy


def make_policy(name: str, seed: int = 0) -> Policy:
    if name == "greedy":
        return greedy(seed=seed)
    if name == "planner":
        return planner(seed=seed)
    if name == "random":
        return random_policy(seed)
    raise RulesError(f"unknown Scruble AI {name!r}; choose from {', '.join(POLICIES)}")


__all__ = ["GREEDY_DEPTH", "LOSS", "POLICIES", "Candidate", "Policy", "greedy", "handed_over", "make_policy", "plan", "planner", "random_policy",
           "reply_value"]
