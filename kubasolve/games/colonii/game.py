"""Whole colonii games: the state (JSON), the referee (illegal actions refused with the reason, the
state unchanged), play with AI policies, and exact replay from seed + actions.

An action is one whole turn: ``{"type": "turn", "moves": [{"play": "new", "word": "ziar"}, {"play":
"extend", "target": 0, "word": "calorifer"}, {"play": "declare", "target": 2}]}`` (moves applied in
order, each judged on the table the previous ones left; at most ``max_turn_moves`` of them build
words, the owner's ``declare`` and ``decolonise`` do not count), ``{"type": "exchange", "cards":
"xz"}`` (return cards under the deck, draw as many; a pass) or ``{"type": "pass"}``. After a turn
the builder refills the hand to ``hand_size`` from the deck and the builder schedule (rule setting
``builders``) names who builds next.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from kubasolve.errors import IllegalMoveError, StateError
from kubasolve.games.colonii.builders import BUILDERS
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import (
    OWNER_PLAYS,
    PLAYS,
    ColoniiMove,
    ColoniiPosition,
    Group,
    apply_move,
    judge,
    remove_cards,
)
from kubasolve.games.limits import check_seed
from kubasolve.games.turn_play import GameRecord, cached_referee, play_turns, replay_actions
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.alphabet import normalize_word

__all__ = ["STATE_FORMAT", "ColoniiState", "GameRecord", "MoveSpec", "Referee", "TurnAction", "action_from_dict",
           "default_referee", "play_game", "replay"]

STATE_FORMAT = "kubasolve.colonii.state/2"
"""Version 2: supercolony declarations and decolonisations are the owner's actions (version 1 paid them
automatically on any player's turn), so a version-1 history replays to other scores and is refused."""
MAX_MOVES_PER_TURN = 40
MAX_TURNS = 2000
"""A guard against games that cannot end (every player keeps exchanging); the game ends there."""


@dataclass(frozen=True)
class MoveSpec:
    """One move of a turn: a play, its target group (None for a new word) and the word (none for the
    owner's ``declare`` and ``decolonise``)."""

    play: str
    word: str = ""
    target: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"play": self.play}
        if self.word:
            d["word"] = self.word
        if self.target is not None:
            d["target"] = self.target
        return d

    @classmethod
    def from_move(cls, move: ColoniiMove) -> MoveSpec:
        return cls(move.play, move.word, move.target)


@dataclass(frozen=True)
class TurnAction:
    """One whole turn: ``turn`` (moves), ``exchange`` (cards back under the deck) or ``pass``."""

    type: str = "turn"
    moves: tuple[MoveSpec, ...] = ()
    cards: str = ""

    def to_dict(self) -> dict[str, Any]:
        if self.type == "turn":
            return {"type": "turn", "moves": [m.to_dict() for m in self.moves]}
        if self.type == "exchange":
            return {"type": "exchange", "cards": self.cards}
        return {"type": "pass"}


def action_from_dict(data: TurnAction | Mapping[str, Any]) -> TurnAction:
    """An action from its JSON form; every key and type checked, clear errors."""
    if isinstance(data, TurnAction):
        return data
    if not isinstance(data, Mapping):
        raise IllegalMoveError("an action must be an object such as {\"type\": \"turn\", \"moves\": [...]}")
    kind = data.get("type")
    allowed = {"turn": {"type", "moves"}, "exchange": {"type", "cards"}, "pass": {"type"}}
    if kind not in allowed:
        raise IllegalMoveError(f"unknown action type {kind!r}; types: turn, exchange, pass", key="action.type")
    unknown = set(data) - allowed[kind]
    if unknown:
        raise IllegalMoveError(f"unknown key(s) in a {kind} action: {', '.join(sorted(unknown))}", key=f"action.{min(unknown)}")
    if kind == "pass":
        return TurnAction("pass")
    if kind == "exchange":
        cards = data.get("cards")
        if not isinstance(cards, str) or not cards:
            raise IllegalMoveError("an exchange needs \"cards\": the letters to give back, e.g. \"xz\"")
        return TurnAction("exchange", cards=normalize_word(cards))
    moves = data.get("moves")
    if not isinstance(moves, list) or not moves:
        raise IllegalMoveError("a turn needs \"moves\": a non-empty list (use {\"type\": \"pass\"} to pass)")
    if len(moves) > MAX_MOVES_PER_TURN:
        raise IllegalMoveError(f"at most {MAX_MOVES_PER_TURN} moves in a turn")
    specs = []
    for k, m in enumerate(moves):
        if not isinstance(m, Mapping):
            raise IllegalMoveError(f"move {k} must be an object such as {{\"play\": \"new\", \"word\": \"ziar\"}}")
        unknown = set(m) - {"play", "word", "target"}
        if unknown:
            raise IllegalMoveError(f"unknown key(s) in move {k}: {', '.join(sorted(unknown))}", key=f"action.moves[{k}].{min(unknown)}")
        play, word, target = m.get("play"), m.get("word"), m.get("target")
        if play not in PLAYS:
            raise IllegalMoveError(f"move {k}: play must be one of {', '.join(PLAYS)}, got {play!r}")
        if play in OWNER_PLAYS:
            if word not in (None, ""):
                raise IllegalMoveError(f"move {k}: {play} takes no word, only the target colony")
            if target is None:
                raise IllegalMoveError(f"move {k}: {play} needs the target colony, e.g. {{\"play\": \"{play}\", \"target\": 0}}")
            word = ""
        elif not isinstance(word, str) or not word:
            raise IllegalMoveError(f"move {k}: word must be a non-empty string")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise IllegalMoveError(f"move {k}: target must be a table group number")
        specs.append(MoveSpec(play, normalize_word(word), target))
    return TurnAction("turn", tuple(specs))


@dataclass(frozen=True)
class ColoniiState:
    """Everything about a game in progress; immutable (the referee returns new states)."""

    rules: ColoniiRules
    seed: int
    n_players: int
    deck: tuple[str, ...]
    hands: tuple[str, ...]
    table: tuple[Group, ...] = ()
    scores: tuple[int, ...] = ()
    current: int = 0
    turn: int = 1
    passes: int = 0
    """Consecutive turns without a word (passes and exchanges)."""
    over: bool = False
    history: tuple[tuple[int, TurnAction], ...] = ()
    log: tuple[tuple[int, str], ...] = field(default=(), compare=False)
    """(turn, text) of notable events: conquests, supercolonies, decolonisations."""

    def position(self, player: int | None = None) -> ColoniiPosition:
        """What the move generator needs for ``player`` (default: the one to build)."""
        p = self.current if player is None else player
        return ColoniiPosition(self.table, self.hands[p], p, self.n_players)

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT, "rules": self.rules.to_dict(), "seed": self.seed, "n_players": self.n_players,
            "deck": "".join(self.deck), "hands": list(self.hands), "table": [g.to_dict() for g in self.table],
            "scores": list(self.scores), "current": self.current, "turn": self.turn, "passes": self.passes,
            "over": self.over, "history": [[p, a.to_dict()] for p, a in self.history],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], referee: Referee | None = None) -> ColoniiState:
        """A state from JSON, checked by replaying its history from the seed (the exact same state or an error)."""
        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise StateError(f"not a colonii state (format {STATE_FORMAT!r} expected)")
        try:
            rules = ColoniiRules.from_dict(data["rules"])
            seed, n = data["seed"], data["n_players"]
            history = [(int(p), action_from_dict(a)) for p, a in data["history"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"incomplete colonii state: {exc}") from None
        except IllegalMoveError as exc:
            raise StateError(f"the state's history holds a malformed action: {exc}") from None
        ref = referee or default_referee(rules)
        if ref.rules != rules:
            ref = default_referee(rules, ref.lexicon)
        try:
            state = replay(seed, history, n, ref)
        except IllegalMoveError as exc:
            raise StateError(f"the state's history is not legal: {exc}") from None
        if state.to_dict() != dict(data):
            raise StateError("the state contradicts its own history (replaying the seed and actions gives another state)")
        return state


class Referee:
    """Applies actions to states under one lexicon and rule set."""

    def __init__(self, lexicon: Lexicon, rules: ColoniiRules | None = None) -> None:
        from kubasolve.games.colonii.movegen import solver_for

        self.lexicon = lexicon
        self.rules = rules or ColoniiRules()
        self.solver = solver_for(lexicon, self.rules)
        self.schedule = BUILDERS[self.rules.builders]

    def new_game(self, seed: int, n_players: int = 2) -> ColoniiState:
        """Shuffle the deck with ``seed`` and deal ``hand_size`` cards to each player in turn."""
        if not isinstance(n_players, int) or not 1 <= n_players <= 8:
            raise IllegalMoveError(f"1 to 8 players, got {n_players!r}")
        check_seed(seed)  # a whole number 0..2**63-1 (KubasolveError, key "seed"), as load_game(...).new_game
        deck = self.rules.deck()
        random.Random(f"colonii:{seed}").shuffle(deck)
        h = self.rules.hand_size
        hands = []
        for _ in range(n_players):
            hands.append("".join(deck[:h]))
            deck = deck[h:]
        return ColoniiState(self.rules, seed, n_players, tuple(deck), tuple(hands), (), (0,) * n_players)

    def judge_turn(self, state: ColoniiState, moves: Sequence[MoveSpec]) -> tuple[list[ColoniiMove], tuple[Group, ...], str, list[int]]:
        """Judge the moves one after another; (judged moves, table, hand, scores) or IllegalMoveError."""
        p = state.current
        table, hand, scores = state.table, state.hands[p], list(state.scores)
        words = sum(1 for spec in moves if spec.play not in OWNER_PLAYS)
        if words > self.rules.max_turn_moves:
            raise IllegalMoveError(f"a turn builds at most {self.rules.max_turn_moves} words (rule max_turn_moves), got {words}")
        judged = []
        for k, spec in enumerate(moves):
            pos = ColoniiPosition(table, hand, p, state.n_players)
            try:
                move = judge(pos, spec.play, spec.target, spec.word, self.rules, self.lexicon)
            except IllegalMoveError as exc:
                what = f"{spec.play} {spec.word!r}" if spec.word else f"{spec.play} group {spec.target}"
                raise IllegalMoveError(f"move {k} ({what}): {exc}") from None
            table = apply_move(table, move, self.rules)
            hand = remove_cards(hand, move.cards)
            scores = [s + d for s, d in zip(scores, move.deltas)]
            judged.append(move)
        return judged, table, hand, scores

    def apply(self, state: ColoniiState, action: TurnAction | Mapping[str, Any]) -> ColoniiState:
        """The state after ``action`` by the player to build; IllegalMoveError (state unchanged) otherwise."""
        if state.over:
            raise IllegalMoveError("the game is over")
        act = action_from_dict(action)
        p = state.current
        deck = list(state.deck)
        log = list(state.log)
        if act.type == "turn":
            judged, table, hand, scores = self.judge_turn(state, act.moves)
            passes = 0 if any(m.kind.builds for m in judged) else state.passes + 1  # declarations alone build nothing
            for m in judged:
                log += [(state.turn, f"player {p}: {n}") for n in m.notes]
        else:
            table, hand, scores = state.table, state.hands[p], list(state.scores)
            passes = state.passes + 1
            if act.type == "exchange":
                short = Counter(act.cards) - Counter(hand)
                if short:
                    raise IllegalMoveError(f"cannot exchange {''.join(sorted(short.elements()))!r}: not in the hand {hand!r}")
                if len(act.cards) > len(deck):
                    raise IllegalMoveError(f"cannot exchange {len(act.cards)} cards: the deck holds {len(deck)}")
                hand = remove_cards(hand, act.cards)
                deck = deck + list(act.cards)  # under the deck; the drawn cards come from the top
        need = max(0, self.rules.hand_size - len(hand))
        drawn, deck = deck[:need], deck[need:]
        hand += "".join(drawn)
        hands = list(state.hands)
        hands[p] = hand
        over = (
            (self.rules.end == "target" and max(scores) >= self.rules.target_score)
            or (self.rules.end == "deck" and not deck)
            or (not deck and passes >= state.n_players)      # nobody can play any more
            or passes >= 3 * state.n_players                 # three rounds of exchanges: stuck
            or state.turn >= MAX_TURNS
        )
        return replace(state, deck=tuple(deck), hands=tuple(hands), table=table, scores=tuple(scores),
                       current=self.schedule(p, state.turn, state.n_players), turn=state.turn + 1, passes=passes,
                       over=over, history=state.history + ((p, act),), log=tuple(log))


_REFEREES: dict[tuple[int, Any], Referee] = {}


def default_referee(rules: ColoniiRules | None = None, lexicon: Lexicon | None = None) -> Referee:
    """A cached referee over the bundled Romanian lexicon (or ``lexicon``)."""
    return cached_referee(_REFEREES, Referee, rules or ColoniiRules(), lexicon, "ro")


class Policy(Protocol):
    name: str

    def turn(self, referee: Referee, state: ColoniiState) -> TurnAction: ...


def play_game(policies: Sequence[Policy], seed: int, referee: Referee | None = None) -> GameRecord:
    """Play a whole game, policy ``i`` seated as player ``i``; deterministic for a seed."""
    return play_turns(policies, seed, referee or default_referee())


def replay(seed: int, actions: Sequence[Any], n_players: int = 2, referee: Referee | None = None) -> ColoniiState:
    """The state reached by applying ``actions`` (objects, JSON forms or (player, action) pairs) to the
    game dealt from ``seed``; a recorded player who is not the one to build is an error."""
    state: ColoniiState = replay_actions(referee or default_referee(), seed, actions, n_players, to_move="builds")
    return state
