"""The colonii table and the rules of one move: which plays are legal and what each does to the scores.

The table is a tuple of *groups*, each an individual word or a colony (a chain of two or more
words, each starting with the previous word's last letter). A group keeps its index for the rest of
the game (new words are appended; a word that becomes a colony, or a colony that decolonises, is
replaced in place), so moves name their target by index.

Three plays build with cards (the referee works out which move each is):

* ``new``: a word from the hand;
* ``extend``: letters added at the end of an individual word (an *extension*, or *conquest A* when
  the new letters are worth more than another player's word);
* ``chain``: a perpendicular word starting with the last letter of a group's last word (a *colony
  start* on one's own word, *conquest B* on another player's word, a *colony addition* on a colony).

Two plays are the owner's actions on their own turn, with no cards: ``declare`` (a colony of
``supercolony_words`` or more words becomes a supercolony, +``supercolony_bonus``, once) and
``decolonise`` (a colony of ``decolonisation_words`` or more words: the owner scores its first word
again, the last word stays as a protected individual word). Neither happens by itself.

:func:`judge` is the single statement of the rules (the referee and the slow reference movegen use
it); :func:`apply_move` updates the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from kubasolve.errors import IllegalMoveError, PositionError
from kubasolve.games.arguments import is_int
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.alphabet import normalize_word

WORD_PLAYS = ("new", "extend", "chain")
"""Plays that build a word with cards (``max_turn_moves`` counts these)."""
OWNER_PLAYS = ("declare", "decolonise")
"""The owner's actions on a colony, without cards: the supercolony declaration and the decolonisation."""
PLAYS = WORD_PLAYS + OWNER_PLAYS


class MoveKind(StrEnum):
    """What a legal play does (see the module docstring)."""

    NEW = "new"
    EXTEND = "extend"
    CONQUEST_A = "conquest-a"
    COLONY_START = "colony-start"
    CONQUEST_B = "conquest-b"
    COLONY_ADD = "colony-add"
    SUPERCOLONY = "supercolony"
    DECOLONISATION = "decolonisation"

    @property
    def play(self) -> str:
        """The play that makes this kind of move."""
        if self is MoveKind.NEW:
            return "new"
        if self in (MoveKind.EXTEND, MoveKind.CONQUEST_A):
            return "extend"
        if self is MoveKind.SUPERCOLONY:
            return "declare"
        if self is MoveKind.DECOLONISATION:
            return "decolonise"
        return "chain"

    @property
    def builds(self) -> bool:
        """Does this move build a word (with cards)? The owner's declarations do not."""
        return self not in (MoveKind.SUPERCOLONY, MoveKind.DECOLONISATION)


MAX_STAKE = 100_000
"""The largest stake of a table word (the engine's and the CLI's bound too)."""


@dataclass(frozen=True)
class Group:
    """An individual word (one word) or a colony (a chain of words) on the table.

    ``stake``: the points the owner holds for an individual word (what it takes from them when
    conquered). ``protected``: the word a decolonisation leaves; it can no longer be conquered.
    ``supercolony``: the owner has declared this colony a supercolony (its bonus is paid).
    """

    words: tuple[str, ...]
    owner: int
    stake: int = 0
    protected: bool = False
    supercolony: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.words, str):  # one word, not a tuple of its letters
            object.__setattr__(self, "words", (self.words,))
        if isinstance(self.words, (tuple, list)):
            object.__setattr__(self, "words", tuple(normalize_word(w) if isinstance(w, str) else w for w in self.words))

    @property
    def is_colony(self) -> bool:
        return len(self.words) >= 2

    @property
    def last(self) -> str:
        return self.words[-1]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"words": list(self.words), "owner": self.owner, "stake": self.stake}
        if self.protected:
            d["protected"] = True
        if self.supercolony:
            d["supercolony"] = True
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Group:
        if not isinstance(data, Mapping):
            raise PositionError("a table group must be an object such as {\"words\": [\"ziar\"], \"owner\": 0, \"stake\": 6}")
        unknown = set(data) - {"words", "owner", "stake", "protected", "supercolony"}
        if unknown:
            raise PositionError(f"unknown key(s) in a table group: {', '.join(sorted(unknown))}")
        words = data.get("words")
        if isinstance(words, str):
            words = [words]
        if not isinstance(words, list) or not words or not all(isinstance(w, str) and w for w in words):
            raise PositionError("a table group needs \"words\": a non-empty list of words")
        owner, stake = data.get("owner"), data.get("stake", 0)
        if not isinstance(owner, int) or isinstance(owner, bool) or owner < 0:
            raise PositionError(f"a table group's owner must be a player number >= 0, got {owner!r}")
        if not isinstance(stake, int) or isinstance(stake, bool) or not 0 <= stake <= MAX_STAKE:
            raise PositionError(f"a table group's stake must be an integer from 0 to {MAX_STAKE:,}, got {stake!r}")
        flags = {k: data.get(k, False) for k in ("protected", "supercolony")}
        for k, v in flags.items():
            if not isinstance(v, bool):
                raise PositionError(f"{k} must be true or false")
        return cls(tuple(w.lower() for w in words), owner, stake, flags["protected"], flags["supercolony"])


@dataclass(frozen=True)
class ColoniiPosition:
    """What a move generator needs: the table, the mover's hand (cards as letters) and the players."""

    table: tuple[Group, ...] = ()
    hand: str = ""
    mover: int = 0
    n_players: int = 2

    def __post_init__(self) -> None:
        if isinstance(self.hand, str):
            object.__setattr__(self, "hand", normalize_word(self.hand))

    def has_own(self, player: int | None = None) -> bool:
        """Does ``player`` (default: the mover) own a word or colony on the table?"""
        p = self.mover if player is None else player
        return any(g.owner == p for g in self.table)

    def validate(self, rules: ColoniiRules, lexicon: Lexicon | None = None) -> None:
        """Raise :class:`PositionError` on a position the rules cannot produce."""
        for name, v in (("n_players", self.n_players), ("mover", self.mover)):
            if not is_int(v):
                raise PositionError(f"{name} must be an integer, got {v!r}")
        if not isinstance(self.hand, str):
            raise PositionError(f"hand must be a string of card letters (e.g. \"oriferânjet\"), got {self.hand!r}")
        if not isinstance(self.table, (tuple, list)) or not all(isinstance(g, Group) for g in self.table):
            raise PositionError(f"table must be a tuple of Group values (Group.from_dict reads JSON), got {self.table!r}")
        for i, g in enumerate(self.table):
            if not isinstance(g.words, tuple) or not g.words or not all(isinstance(w, str) and w for w in g.words):
                raise PositionError(f"table group {i}: words must be a non-empty tuple of words, got {g.words!r}")
            if not is_int(g.owner):
                raise PositionError(f"table group {i}: owner must be a player number, got {g.owner!r}")
            if not is_int(g.stake) or not 0 <= g.stake <= MAX_STAKE:
                raise PositionError(f"table group {i}: stake must be an integer from 0 to {MAX_STAKE:,}, got {g.stake!r}")
            for flag in ("protected", "supercolony"):
                if not isinstance(getattr(g, flag), bool):
                    raise PositionError(f"table group {i}: {flag} must be True or False, got {getattr(g, flag)!r}")
        if not 1 <= self.n_players <= 8:
            raise PositionError(f"1 to 8 players, got {self.n_players}")
        if not 0 <= self.mover < self.n_players:
            raise PositionError(f"mover {self.mover} is not a player (0..{self.n_players - 1})")
        bad = sorted({c for c in self.hand if c not in rules.alphabet})
        if bad:
            raise PositionError(f"card(s) {''.join(bad)!r} are not letters of the alphabet {rules.alphabet!r}")
        if len(self.hand) > 30:
            raise PositionError(f"a hand holds at most 30 cards, got {len(self.hand)}")
        if len(self.table) > 1000:
            raise PositionError("at most 1000 groups on the table")
        for i, g in enumerate(self.table):
            if not 0 <= g.owner < self.n_players:
                raise PositionError(f"table group {i} is owned by player {g.owner}, not a player (0..{self.n_players - 1})")
            for w in g.words:
                if not all(c in rules.alphabet for c in w):
                    raise PositionError(f"table word {w!r} has letters outside the alphabet")
                if len(w) > 60:
                    raise PositionError(f"table word {w!r} is too long")
            for a, b in zip(g.words, g.words[1:]):
                if b[0] != a[-1]:
                    raise PositionError(f"colony {i}: {b!r} does not start with the last letter of {a!r}")
            if len(set(g.words)) != len(g.words):
                raise PositionError(f"colony {i} repeats a word")
            if g.supercolony and len(g.words) < rules.supercolony_words:
                raise PositionError(f"colony {i} is declared a supercolony with {len(g.words)} words "
                                    f"(a supercolony has at least {rules.supercolony_words})")

    def to_dict(self) -> dict[str, Any]:
        return {"table": [g.to_dict() for g in self.table], "hand": self.hand, "mover": self.mover, "n_players": self.n_players}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ColoniiPosition:
        if not isinstance(data, Mapping):
            raise PositionError("a position must be an object with table, hand, mover, n_players")
        unknown = set(data) - {"table", "hand", "mover", "n_players"}
        if unknown:
            raise PositionError(f"unknown key(s) in a position: {', '.join(sorted(unknown))}")
        table = data.get("table", [])
        if not isinstance(table, list):
            raise PositionError("table must be a list of groups")
        hand = data.get("hand", "")
        if not isinstance(hand, str):
            raise PositionError("hand must be a string of card letters")
        mover, n = data.get("mover", 0), data.get("n_players", 2)
        for name, v in (("mover", mover), ("n_players", n)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise PositionError(f"{name} must be an integer")
        return cls(tuple(Group.from_dict(g) for g in table), hand.lower(), mover, n)


@dataclass(frozen=True)
class ColoniiMove:
    """A legal move, judged: its kind, the cards it takes from the hand, and every player's score change.

    ``gain`` is the mover's change; ``deltas[p]`` player ``p``'s (a conquered owner moves back, a
    colony owner gets the supercolony and decolonisation bonuses).
    """

    kind: MoveKind
    target: int | None
    word: str
    cards: str
    gain: int
    deltas: tuple[int, ...]
    mover: int
    notes: tuple[str, ...] = field(default=())

    @property
    def play(self) -> str:
        return self.kind.play

    @property
    def taken(self) -> int:
        """Points taken from the other players (their total loss)."""
        return -sum(d for p, d in enumerate(self.deltas) if p != self.mover and d < 0)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"play": self.play, "kind": self.kind.value, "word": self.word, "cards": self.cards,
                             "gain": self.gain, "deltas": list(self.deltas)}
        if self.target is not None:
            d["target"] = self.target
        if self.notes:
            d["notes"] = list(self.notes)
        return d


def cards_of(play: str, target_group: Group | None, word: str) -> str:
    """Cards a play takes from the hand: the whole word, the added suffix, all but the shared letter, or none."""
    if play == "new":
        return word
    if play == "extend":
        assert target_group is not None
        return word[len(target_group.words[0]):]
    if play in OWNER_PLAYS:
        return ""
    return word[1:]


def _target(position: ColoniiPosition, target: object) -> Group:
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(position.table):
        raise IllegalMoveError(f"target {target!r} is not a group on the table (0..{len(position.table) - 1})")
    return position.table[target]


def judge_owner_play(position: ColoniiPosition, play: str, target: int | None, rules: ColoniiRules) -> ColoniiMove:
    """The supercolony declaration or the decolonisation of group ``target`` by the mover, or
    :class:`IllegalMoveError` with the reason. Both are the owner's actions on their own turn
    ("doar pe runda jucătorului care deține Supercolonia"), neither is automatic."""
    group = _target(position, target)
    assert target is not None
    mover = position.mover
    if group.owner != mover:
        raise IllegalMoveError(f"group {target} is player {group.owner}'s: only its owner may {play} it, on their own turn")
    if not group.is_colony:
        raise IllegalMoveError(f"group {target} is an individual word, not a colony")
    deltas = [0] * position.n_players
    size = len(group.words)
    if play == "declare":
        if group.supercolony:
            raise IllegalMoveError(f"group {target} is already a supercolony (its bonus is paid once)")
        if size < rules.supercolony_words:
            raise IllegalMoveError(f"group {target} has {size} words; a supercolony needs {rules.supercolony_words}")
        deltas[mover] = rules.supercolony_bonus
        note = f"declares a supercolony: +{rules.supercolony_bonus}"
        return ColoniiMove(MoveKind.SUPERCOLONY, target, "", "", deltas[mover], tuple(deltas), mover, (note,))
    if size < rules.decolonisation_words:
        raise IllegalMoveError(f"group {target} has {size} words; decolonisation needs {rules.decolonisation_words}")
    first = rules.value(group.words[0])
    deltas[mover] = first
    note = f"decolonises: doubles {group.words[0]!r} (+{first}); only {group.last!r} stays, protected"
    return ColoniiMove(MoveKind.DECOLONISATION, target, "", "", first, tuple(deltas), mover, (note,))


def judge(position: ColoniiPosition, play: str, target: int | None, word: str, rules: ColoniiRules, lexicon: Lexicon,
          check_hand: bool = True) -> ColoniiMove:
    """The move ``play`` of ``word`` on group ``target`` makes, or :class:`IllegalMoveError` with the reason.

    Rulebook rules applied here (quoted in ``docs/colonii.md``): words are built from the hand; an
    extension adds letters at a word's end and scores only them; playing on others' words or
    colonies needs an own word on the table; conquest A and B need added letters worth more than the
    word; colony words are unique and cannot be conquered. The owner's ``declare`` and
    ``decolonise`` take no word (``word`` is ignored): see :func:`judge_owner_play`.
    """
    if play in OWNER_PLAYS:
        return judge_owner_play(position, play, target, rules)
    word = normalize_word(word) if isinstance(word, str) else word
    if not isinstance(word, str) or not word:
        raise IllegalMoveError("a move needs a word")
    if play not in PLAYS:
        raise IllegalMoveError(f"unknown play {play!r}; plays: {', '.join(PLAYS)}")
    if len(word) < rules.min_word_length:
        raise IllegalMoveError(f"{word!r} is shorter than {rules.min_word_length} letters")
    if word not in lexicon:
        raise IllegalMoveError(f"{word!r} is not in the lexicon")
    mover, n = position.mover, position.n_players
    group: Group | None = None
    if play == "new":
        if target is not None:
            raise IllegalMoveError("a new word has no target")
    else:
        group = _target(position, target)
    cards = cards_of(play, group, word)
    if check_hand:
        short = Counter(cards) - Counter(position.hand)
        if short:
            raise IllegalMoveError(f"{word!r} needs card(s) {''.join(sorted(short.elements()))!r} not in the hand {position.hand!r}")
    added = rules.value(cards)
    deltas = [0] * n
    deltas[mover] += added
    notes: list[str] = []
    if play == "new":
        return ColoniiMove(MoveKind.NEW, None, word, cards, added, tuple(deltas), mover)
    assert group is not None and target is not None
    on_other = group.owner != mover
    if on_other and not position.has_own():
        raise IllegalMoveError("playing on another player's word or colony needs one of your own words on the table")
    if play == "extend":
        if group.is_colony:
            raise IllegalMoveError(f"group {target} is a colony: its words cannot be extended (chain a new word instead)")
        base = group.words[0]
        if not word.startswith(base) or len(word) == len(base):
            raise IllegalMoveError(f"{word!r} does not extend {base!r} (letters are added at its end)")
        kind = MoveKind.EXTEND
        if on_other and not group.protected and added > rules.value(base):
            kind = MoveKind.CONQUEST_A
            deltas[mover] += group.stake
            deltas[group.owner] -= group.stake
            notes.append(f"conquers {base!r} from player {group.owner}")
        return ColoniiMove(kind, target, word, cards, deltas[mover], tuple(deltas), mover, tuple(notes))
    # chain: a perpendicular word from the last letter of the group's last word
    last = group.last
    if word[0] != last[-1]:
        raise IllegalMoveError(f"{word!r} must start with {last[-1]!r}, the last letter of {last!r}")
    if word in group.words:
        raise IllegalMoveError(f"{word!r} is already in this colony (words in a colony are unique)")
    if not group.is_colony:
        if not on_other:
            kind = MoveKind.COLONY_START
        else:
            if group.protected:
                raise IllegalMoveError(f"{last!r} was left by a decolonisation: it cannot be conquered")
            if added <= rules.value(last):
                raise IllegalMoveError(
                    f"a perpendicular word on another player's word must conquer it: the added letters "
                    f"{cards!r} are worth {added}, not more than {last!r} ({rules.value(last)})")
            kind = MoveKind.CONQUEST_B
            deltas[mover] += group.stake
            deltas[group.owner] -= group.stake
            notes.append(f"conquers {last!r} from player {group.owner}")
        return ColoniiMove(kind, target, word, cards, deltas[mover], tuple(deltas), mover, tuple(notes))
    return ColoniiMove(MoveKind.COLONY_ADD, target, word, cards, deltas[mover], tuple(deltas), mover, tuple(notes))


def apply_move(table: tuple[Group, ...], move: ColoniiMove, rules: ColoniiRules) -> tuple[Group, ...]:
    """The table after ``move`` (judged on this table)."""
    groups = list(table)
    mover = move.mover
    added = rules.value(move.cards)
    if move.kind is MoveKind.NEW:
        groups.append(Group((move.word,), mover, added))
        return tuple(groups)
    assert move.target is not None
    g = groups[move.target]
    if move.kind is MoveKind.EXTEND:
        stake = g.stake + added if g.owner == mover else g.stake
        groups[move.target] = replace(g, words=(move.word,), stake=stake)
    elif move.kind is MoveKind.CONQUEST_A:
        groups[move.target] = Group((move.word,), mover, g.stake + added)
    elif move.kind in (MoveKind.COLONY_START, MoveKind.CONQUEST_B):
        groups[move.target] = Group((g.words[0], move.word), mover, 0)
    elif move.kind is MoveKind.COLONY_ADD:
        groups[move.target] = replace(g, words=g.words + (move.word,))
    elif move.kind is MoveKind.SUPERCOLONY:
        groups[move.target] = replace(g, supercolony=True)
    else:  # decolonisation: the first words leave play, the last stays as the owner's protected word
        groups[move.target] = Group((g.last,), g.owner, rules.value(g.last), protected=True)
    return tuple(groups)


def owner_actions(position: ColoniiPosition, rules: ColoniiRules) -> list[tuple[str, int]]:
    """The owner's actions open to the mover now, as (play, target): ``declare`` for each own colony of
    ``supercolony_words`` or more words not yet declared, ``decolonise`` for each own colony of
    ``decolonisation_words`` or more words. Declaring before decolonising keeps the supercolony bonus."""
    out: list[tuple[str, int]] = []
    for i, g in enumerate(position.table):
        if g.owner != position.mover or not g.is_colony:
            continue
        if not g.supercolony and len(g.words) >= rules.supercolony_words:
            out.append(("declare", i))
        if len(g.words) >= rules.decolonisation_words:
            out.append(("decolonise", i))
    return out


def remove_cards(hand: str, cards: str) -> str:
    """The hand without ``cards`` (each card once, first occurrences), order kept."""
    left = list(hand)
    for c in cards:
        left.remove(c)
    return "".join(left)


__all__ = ["OWNER_PLAYS", "PLAYS", "WORD_PLAYS", "ColoniiMove", "ColoniiPosition", "Group", "MoveKind", "apply_move", "cards_of", "judge",
           "judge_owner_play", "owner_actions", "remove_cards"]
