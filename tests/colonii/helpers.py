"""Small lexicons and positions shared by the colonii tests."""

from __future__ import annotations

from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import ColoniiPosition, Group
from kubasolve.games.colonii.wordlist import ROMANIAN_ALPHABET
from kubasolve.lexicon import Lexicon

RULEBOOK_WORDS = [
    "cal", "calul", "căluț", "cai", "caii", "calorifer", "ziar", "ziarist", "ziare", "rânjet", "raft", "taxi", "idee",
    "tac", "tare", "rac", "rar", "ac", "ar", "ia", "ta", "iar", "rata", "tractor", "ra", "lac", "lacrima",
    "trei", "tei", "ie", "este", "ea", "al", "la", "ale", "ele", "el", "le", "lea", "ace", "eta",
]


def small_lexicon(words: list[str] | None = None) -> Lexicon:
    return Lexicon.from_words(words or RULEBOOK_WORDS, alphabet=ROMANIAN_ALPHABET, name="ro-test")


def rules(**changes: object) -> ColoniiRules:
    return ColoniiRules().with_(**changes) if changes else ColoniiRules()


def word(w: str, owner: int, stake: int | None = None, protected: bool = False) -> Group:
    return Group((w,), owner, ColoniiRules().value(w) if stake is None else stake, protected)


def position(table: list[Group], hand: str, mover: int = 0, n_players: int = 2) -> ColoniiPosition:
    return ColoniiPosition(tuple(table), hand, mover, n_players)


def referee_scores(lex: Lexicon, rules: ColoniiRules, pos: ColoniiPosition, moves: object) -> tuple[int, ...]:
    """Every player's score change when the referee itself plays ``moves`` (a turn's moves) for the mover of
    ``pos``; the referee refuses an illegal turn (IllegalMoveError)."""
    from kubasolve.games.colonii.game import ColoniiState, MoveSpec, Referee, TurnAction

    hands = tuple(pos.hand if p == pos.mover else "" for p in range(pos.n_players))
    state = ColoniiState(rules, 0, pos.n_players, (), hands, pos.table, (0,) * pos.n_players, pos.mover)
    action = TurnAction("turn", tuple(MoveSpec.from_move(m) for m in moves))  # type: ignore[attr-defined]
    return Referee(lex, rules).apply(state, action).scores


def assert_best_turn_is_exact(lex: Lexicon, rules: ColoniiRules, pos: ColoniiPosition, objective: str, max_moves: int) -> object:
    """The solver's best turn is proven, equals the best of every legal sequence (``reference_best_turn``),
    builds at most ``max_moves`` words, and the referee plays it for the points it claims; returns it."""
    from kubasolve.games.colonii.movegen import ColoniiSolver
    from kubasolve.games.colonii.reference import reference_best_turn, turn_key

    turn = ColoniiSolver(lex, rules).best_turn(pos, objective, max_moves)
    assert turn.proven_optimal
    assert turn_key(turn.moves, objective) == reference_best_turn(pos, lex, rules, objective, max_moves)
    assert sum(m.kind.builds for m in turn.moves) <= max_moves
    deltas = [sum(m.deltas[p] for m in turn.moves) for p in range(pos.n_players)]
    assert list(referee_scores(lex, rules.with_(max_turn_moves=max_moves), pos, turn.moves)) == deltas
    return turn


def whole_and_sliced(lex: Lexicon, rules: ColoniiRules, pos: ColoniiPosition, objective: str, max_moves: int,
                     slice_nodes: int) -> tuple[object, object]:
    """The best turn searched in one go and resumed after every ``slice_nodes`` nodes."""
    from kubasolve.games.colonii.movegen import ColoniiSolver, TurnBudget

    solver = ColoniiSolver(lex, rules)
    whole = solver.best_turn(pos, objective, max_moves)
    budget = TurnBudget(movetime_ms=600_000)
    budget.SLICE_NODES = slice_nodes  # resumed after every few nodes
    return whole, solver.best_turn(pos, objective, max_moves, budget)
