"""Post-game analysis of a Kubagram game: per turn the best claim that was available against the points the player
made, and what the player left in the field for the next player; a summary per player.

The game is replayed from its seed and actions (a ``kubasolve kubagram simulate --records`` line, a
``kubasolve kubagram play --save`` file or any saved state of the game). For each turn:

* **made** - the player's own score change from the claims of the turn (words and compounds; points taken from others
  are listed separately as ``taken``);
* **best** - the best whole claim (exact, up to the rules' ``max_claim_words`` words and compounds, by own gain) after
  the best way to take the cube: every take option of the turn (letters, keeping a joker) is tried, the claim searched
  in the field, held jokers and table words after it. A turn that skips or passes a 0 cube on is compared with the
  best claim before it (field only, when missed words may be claimed). ``missed = max(0, best - made)``;
* **left** - the best words (and the best whole claim) the field offers the next player at the start of their turn.

The analysis is one-turn: a lower ``made`` can be the better play (keeping letters for a longer word, denying the next
player); ``left`` shows that side of the trade.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubasolve.errors import KubasolveError, StateError
from kubasolve.games.kubagram.actions import Action, Claim, PlaceZero, Skip, Take, action_from_dict
from kubasolve.games.kubagram.referee import Referee
from kubasolve.games.kubagram.state import GameState

__all__ = ["GameAnalysis", "GameRecordInput", "PlayerSummary", "TurnAnalysis", "analyse_file", "analyse_game",
           "load_game_record", "render_analysis"]

LEFT_WORDS = 3
"""How many of the best words left for the next player are listed per turn."""


@dataclass(frozen=True)
class GameRecordInput:
    """What the analysis needs: the deal (seed, players, rotation), the actions and, from a saved game, its rules."""

    seed: int | str
    n_players: int
    actions: tuple[tuple[int, Action], ...]
    seats: tuple[str, ...] = ()
    rotation: Any = None
    rules: Any = None
    game_rules: Any = None


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn: what was played, made, available and left."""

    turn: int
    player: int
    actions: tuple[Action, ...]
    made: int
    taken: int
    best: int
    best_option: Action | None
    best_items: tuple[str, ...]
    left_best: int
    left_words: tuple[tuple[str, int], ...]

    @property
    def missed(self) -> int:
        """Points of the best claim the player did not make (0 when they made at least as much)."""
        return max(0, self.best - self.made)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "player": self.player, "actions": [a.to_dict() for a in self.actions],
            "made": self.made, "taken": self.taken, "best": self.best, "missed": self.missed,
            "best_option": self.best_option.to_dict() if self.best_option is not None else None,
            "best_claim": list(self.best_items), "left_best": self.left_best,
            "left_words": [{"word": w, "score": s} for w, s in self.left_words],
        }


@dataclass(frozen=True)
class PlayerSummary:
    """Totals of one player over the game."""

    player: int
    seat: str
    score: int
    turns: int
    made: int
    best: int
    missed: int
    left: int
    """Sum of the best claims the player left to the next player."""

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "seat": self.seat, "score": self.score, "turns": self.turns, "made": self.made,
                "best": self.best, "missed": self.missed, "left": self.left}


@dataclass(frozen=True)
class GameAnalysis:
    """Every turn analysed, and a summary per player."""

    seed: int | str
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "scores": list(self.scores), "winners": list(self.winners),
                "players": [p.to_dict() for p in self.players], "turns": [t.to_dict() for t in self.turns]}


# ---------------------------------------------------------------------- input
def load_game_record(path: str | Path, index: int | None = None, lexicon: Any = None) -> GameRecordInput:
    """A game from a ``simulate --records`` JSON-lines file (``index``: its ``index``, default the first line) or from
    a saved game (``play --save``, an engine state: verified by replay). Raises :class:`StateError` on bad input."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StateError(f"no game record {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StateError(f"cannot read the game record {path}: {exc}") from None
    stripped = text.strip()
    if not stripped:
        raise StateError(f"{path} is empty")
    try:
        whole = json.loads(stripped)
    except (ValueError, RecursionError):
        whole = None
    if isinstance(whole, dict) and (isinstance(whole.get("state"), dict) or whole.get("format") == "kubasolve-state"):
        return _from_save(whole, path, lexicon)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    for k, line in enumerate(lines):
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            raise StateError(f"{path}: line {k + 1} is not JSON (or nested too deeply)") from None
        if not isinstance(row, dict):
            raise StateError(f"{path}: line {k + 1} is not a game record")
        number = row.get("index", row.get("game"))  # older records numbered their games under "game"
        if index is None or (type(number) is int and number == index):
            return _from_simulate(row, path, k + 1)
    raise StateError(f"{path} holds no game with index {index}")


def _from_save(data: Mapping[str, Any], path: str | Path, lexicon: Any) -> GameRecordInput:
    if data.get("format") == "kubasolve-state":  # a protocol saved state (play --save, the engine's state)
        if data.get("game") != "kubagram" or not isinstance(data.get("native"), dict):
            raise StateError(f"{path} is not a saved kubagram game")
        data = {"state": data["native"], "seats": data.get("players")}
    final = GameState.from_dict(data["state"], lexicon=lexicon)
    seats = data.get("seats")
    seat_names = tuple(seats) if isinstance(seats, list) and all(isinstance(s, str) for s in seats) else ()
    return GameRecordInput(final.setup.seed, final.n_players, tuple(final.history), seat_names,
                           final.setup.rotation, final.rules, final.game_rules)


def _from_simulate(row: Mapping[str, Any], path: str | Path, line: int) -> GameRecordInput:
    seed, seats, actions = row.get("seed"), row.get("seats"), row.get("actions")
    if type(seed) is not int or not isinstance(seats, list) or not all(isinstance(s, str) for s in seats) \
            or not isinstance(actions, list) or (row.get("game", "kubagram") != "kubagram" and type(row.get("game")) is not int):
        raise StateError(f"{path}: line {line} is not a kubagram simulate record (seed, seats, actions)")
    pairs: list[tuple[int, Action]] = []
    for i, item in enumerate(actions):
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int):
            raise StateError(f"{path}: line {line}: actions[{i}] must be a [player, action] pair")
        steps = item[1]["actions"] if isinstance(item[1], dict) and item[1].get("type") == "turn" else [item[1]]
        try:  # a whole turn (the protocol's turn action) is its actions in order, all by the same player
            pairs += [(item[0], action_from_dict(step)) for step in steps]
        except (KubasolveError, TypeError, ValueError, KeyError) as exc:
            raise StateError(f"{path}: line {line}: actions[{i}]: {exc}") from None
    rules = game_rules = None
    if isinstance(row.get("rules"), dict):  # the rules the game was played with (records of kubasolve simulate)
        from kubasolve.games.kubagram.protocol import KubagramPlayRules

        try:
            played = KubagramPlayRules.from_dict(row["rules"])
        except KubasolveError as exc:
            raise StateError(f"{path}: line {line}: rules: {exc}") from None
        rules, game_rules = played.scoring, played.game
    return GameRecordInput(seed, len(seats), tuple(pairs), tuple(seats), rules=rules, game_rules=game_rules)


# ---------------------------------------------------------------------- analysis
def analyse_game(record: GameRecordInput, referee: Referee) -> GameAnalysis:
    """Replay ``record`` with ``referee`` and analyse every turn (an action that does not replay is a StateError)."""
    state = referee.new_game(record.seed, record.n_players, rotation=record.rotation)
    turns: list[TurnAnalysis] = []
    k = 0
    actions = record.actions
    while k < len(actions):
        player = actions[k][0]
        start = state
        played: list[Action] = []
        made = taken = 0
        while k < len(actions) and actions[k][0] == player:
            who, action = actions[k]
            if who != state.current:
                raise StateError(f"action {k}: recorded for player {who}, but player {state.current} is to move")
            try:
                after = referee.apply(state, action)
            except KubasolveError as exc:
                raise StateError(f"action {k} does not replay: {exc}") from None
            if isinstance(action, Claim):
                made += after.scores[player] - state.scores[player]
                taken += sum(state.scores[p] - after.scores[p] for p in range(state.n_players) if p != player)
            played.append(action)
            state = after
            k += 1
        best, option, items = _best_available(referee, start, played)
        left_best, left_words = _left(referee, state)
        turns.append(TurnAnalysis(start.turn, player, tuple(played), made, taken, best, option, items, left_best,
                                  left_words))
    seats = record.seats or tuple(f"player {p}" for p in range(record.n_players))
    summaries = []
    for p in range(record.n_players):
        mine = [t for t in turns if t.player == p]
        summaries.append(PlayerSummary(p, seats[p] if p < len(seats) else f"player {p}", state.scores[p], len(mine),
                                       sum(t.made for t in mine), sum(t.best for t in mine),
                                       sum(t.missed for t in mine), sum(t.left_best for t in mine)))
    return GameAnalysis(record.seed, tuple(turns), tuple(summaries), tuple(state.scores),
                        tuple(state.winners()) if state.over else ())


def _best_available(referee: Referee, start: GameState, played: Sequence[Action]) -> tuple[int, Action | None, tuple[str, ...]]:
    """Best claim gain over the turn's take options (or before passing the turn), with the option and its items."""
    passes = any(isinstance(a, Skip) for a in played) or (
        start.phase == "start" and start.next_cube is not None and start.next_cube.marking.value == "0"
        and any(isinstance(a, Take) for a in played))
    best: tuple[int, Action | None, tuple[str, ...]] = (0, None, ())
    if start.phase == "start" and (passes or start.game_rules.missed_claims):
        best = _claim_value(referee, start.position(include_held=False), None)
    if passes or start.phase == "after":
        if start.phase == "after":
            best = max(best, _claim_value(referee, start.position(include_held=True), None), key=lambda b: b[0])
        return best
    for option in referee.take_options(start):
        if isinstance(option, Skip):
            continue
        after = referee.apply(start, option)
        if after.current != start.current or after.phase != "after":
            continue
        got = _claim_value(referee, after.position(include_held=True), option)
        if got[0] > best[0]:
            best = got
    return best


def _claim_value(referee: Referee, position: Any, option: Action | None) -> tuple[int, Action | None, tuple[str, ...]]:
    if not position.tiles and len(position.table) < 2:
        return 0, option, ()
    claim = referee.solver.best_move(position, objective="gain")
    items = tuple(w.word for w in claim.words) + tuple(c.word for c in claim.compounds)
    return claim.gain, option, items


def _left(referee: Referee, state: GameState) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Best claim and best words the field offers the player to move next (none once the game is over)."""
    if state.over:
        return 0, ()
    position = state.position(include_held=False)
    words = referee.solver.best_words(position, top=LEFT_WORDS) if position.tiles else []
    value, _, _ = _claim_value(referee, position, None)
    return value, tuple((w.word, w.score) for w in words)


def analyse_file(path: str | Path, index: int | None = None, rules: Any = None, game_rules: Any = None,
                 lexicon: Any = None) -> GameAnalysis:
    """Load a game record (see :func:`load_game_record`) and analyse it; a saved game or a simulate record that
    holds its rules brings them, an older record is replayed with ``rules``/``game_rules`` (the ones it was played
    with; default rules)."""
    from dataclasses import replace

    from kubasolve.games.kubagram.game import default_referee

    record = load_game_record(path, index, lexicon)
    if record.rules is not None:
        game_rules = record.game_rules
        if game_rules is not None and game_rules.n_players != record.n_players:
            game_rules = replace(game_rules, n_players=record.n_players)
        referee = default_referee(record.rules, game_rules, lexicon)
    else:
        if game_rules is not None and game_rules.n_players != record.n_players:
            game_rules = replace(game_rules, n_players=record.n_players)
        referee = default_referee(rules, game_rules, lexicon)
    return analyse_game(record, referee)


def render_analysis(analysis: GameAnalysis) -> str:
    """A plain-text report: one line per turn, then the summary per player."""
    from kubasolve.games.rendering import format_table

    rows = []
    for t in analysis.turns:
        played = ", ".join(_action_text(a) for a in t.actions if not _is_end(a))
        best = f"{t.best} {'+'.join(t.best_items)}" if t.best_items else str(t.best)
        left = ", ".join(f"{w} {s}" for w, s in t.left_words)
        rows.append([t.turn, t.player, played, t.made, best, t.missed, left])
    out = [format_table(["turn", "player", "played", "made", "best available", "missed", "left for next"], rows), ""]
    summary = [[p.player, p.seat, p.score, p.turns, p.made, p.best, p.missed, p.left] for p in analysis.players]
    out.append(format_table(["player", "seat", "score", "turns", "made", "best", "missed", "left"], summary))
    return "\n".join(out)


def _is_end(action: Action) -> bool:
    return action.to_dict().get("type") == "end"


def _action_text(action: Action) -> str:
    if isinstance(action, Claim):
        return f"claim {action.word}"
    if isinstance(action, Take):
        return "take keep" if action.keep else f"take {action.letter or ''}".strip()
    if isinstance(action, PlaceZero):
        return f"place {action.letter}"
    return str(action.to_dict().get("type"))
