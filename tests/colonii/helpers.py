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
