"""The Kubagram referee: legal actions and pure, validated state transitions.

``Referee.apply(state, action)`` returns a new :class:`~kubasolve.games.kubagram.state.GameState`; an illegal
action raises :class:`~kubasolve.errors.IllegalMoveError` with the reason and the given state is untouched (states
are immutable). Rule choices where the rulebook is silent are documented in ``docs/kubagram_game.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kubasolve.errors import IllegalMoveError, RulesError
from kubasolve.games.kubagram.actions import (
    Action,
    Claim,
    EndTurn,
    PlaceZero,
    Skip,
    Take,
    action_from_dict,
)
from kubasolve.games.kubagram.assign import TilePool, assign_words
from kubasolve.games.kubagram.equipment import BoardLayout, CubeSet
from kubasolve.games.kubagram.game_rules import KubagramGameRules
from kubasolve.games.kubagram.movegen import KubagramSolver, solver_for
from kubasolve.games.kubagram.moves import CompoundMove, WordMove
from kubasolve.games.kubagram.position import KubagramPosition, TableWord
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.games.kubagram.setup import PlacedCube, RotationChoice, Seed, deal
from kubasolve.games.kubagram.state import FieldTile, GameState, HeldJoker
from kubasolve.lexicon import Lexicon

__all__ = ["KubagramReferee", "Referee", "claim_from_move"]


def claim_from_move(move: WordMove | CompoundMove, table: tuple[TableWord, ...]) -> Claim:
    """The :class:`Claim` action for a solver move (word or compound) in a position with ``table``."""
    if isinstance(move, WordMove):
        return Claim(move.word, move.tiles)
    parts: list[int | None] = []
    pending = list(move.table_parts)
    field_placed = move.field_word is None
    for s in move.parts:
        # the new word goes at the first part spelling it (a table word with the same spelling is interchangeable)
        if not field_placed and s == move.field_word.word:  # type: ignore[union-attr]
            parts.append(None)
            field_placed = True
        else:
            parts.append(pending.pop(0))
    return Claim(move.word, move.field_word.tiles if move.field_word else None, tuple(parts))


def _settled(table: tuple[TableWord, ...]) -> tuple[TableWord, ...]:
    """The table when the turn passes: the words claimed in it become compound parts like any other."""
    if not any(w.fresh for w in table):
        return table
    return tuple(replace(w, fresh=False) if w.fresh else w for w in table)


class Referee:
    """Checks and applies actions for one lexicon and rule set; shares the cached solver."""

    def __init__(self, lexicon: Lexicon, rules: KubagramRules | None = None,
                 game_rules: KubagramGameRules | None = None) -> None:
        self.lexicon = lexicon
        self.rules = rules or KubagramRules()
        self.game_rules = game_rules or KubagramGameRules()
        self.solver: KubagramSolver = solver_for(lexicon, self.rules)

    # ------------------------------------------------------------------ new game
    def new_game(self, seed: Seed | None, n_players: int | None = None, cube_set: CubeSet | None = None,
                 layout: BoardLayout | None = None, rotation: RotationChoice = None) -> GameState:
        """Deal a game from ``seed`` and return its first state (start player to move)."""
        gr = self.game_rules if n_players is None else replace(self.game_rules, n_players=n_players)
        setup = deal(seed, cube_set, layout, gr.n_players, rotation=rotation)
        n = gr.n_players
        return GameState(setup, self.rules, gr, current=setup.start_player, held=((),) * n, scores=(0,) * n,
                         skips=(0,) * n)

    def check_state(self, state: GameState) -> None:
        """Refuse a state made for other rules."""
        if state.rules != self.rules:
            raise RulesError("this state was made for other scoring rules than the referee's")

    # ------------------------------------------------------------------ apply
    def apply(self, state: GameState, action: Action | dict[str, Any]) -> GameState:
        """The state after ``action`` by the player to move; :class:`IllegalMoveError` (state unchanged) if illegal."""
        action = action_from_dict(action)
        if state.rules is not self.rules:
            self.check_state(state)
        if state.over:
            raise IllegalMoveError("the game is over")
        if isinstance(action, Take):
            new = self._take(state, action)
        elif isinstance(action, PlaceZero):
            new = self._place_zero(state, action)
        elif isinstance(action, Claim):
            new = self._claim(state, action)
        elif isinstance(action, Skip):
            new = self._skip(state)
        elif isinstance(action, EndTurn):
            new = self._end(state)
        else:  # pragma: no cover - action_from_dict only returns the types above
            raise IllegalMoveError(f"unknown action {action!r}")
        return replace(new, history=state.history + ((state.current, action),))

    def _next(self, state: GameState) -> int:
        return (state.current + 1) % state.n_players

    def _letter_for(self, state: GameState, cube: PlacedCube, letter: str | None, free: bool) -> str:
        """The letter a taken cube shows: ``free`` (III, joker, 0 pass) lets the taker pick any of its letters;
        otherwise (I) only the top letter, unless the vowel rule forces a vowel."""
        letters = cube.cube.top_letters
        vowels = [c for c in letters if c in state.game_rules.vowels]
        vowel_rule = state.vowel_rule_active() and bool(vowels)
        if vowel_rule:
            if letter is None and cube.top in vowels and not free:
                return cube.top
            if letter not in vowels:
                raise IllegalMoveError(
                    f"vowel rule: only consonants lie on the table, so this cube must show a vowel "
                    f"({', '.join(v.upper() for v in vowels)}), got {letter.upper() if letter else 'no letter'}")
            return letter
        if not free:
            if letter is not None and letter != cube.top:
                raise IllegalMoveError(f"the cube lies on an I square: only its top letter {cube.top.upper()} counts, "
                                       f"not {letter.upper()}")
            return cube.top
        if letter is None:
            raise IllegalMoveError(f"choose the letter this cube shows: one of {', '.join(c.upper() for c in letters)}")
        if letter not in letters:
            raise IllegalMoveError(f"{letter.upper()} is not on this cube ({', '.join(c.upper() for c in letters)})")
        return letter

    def _take(self, state: GameState, action: Take) -> GameState:
        if state.phase != "start":
            raise IllegalMoveError("you already took a cube this turn; claim words or end the turn"
                                   if state.phase == "after" else "place the cube passed on to you first")
        cube = state.next_cube
        assert cube is not None  # a game with no cube left is over
        marking = cube.marking.value
        joker = cube.cube.is_joker
        nxt = self._next(state)
        if marking == "0":
            if action.letter is not None or action.keep:
                raise IllegalMoveError("the cube lies on a 0 square: pass it on to the next player, who picks its letter "
                                       "(take it without a letter)")
            return replace(state, taken=state.taken + 1, phase="zero", current=nxt, turn=state.turn + 1,
                           table=_settled(state.table))
        if action.keep:
            if not joker:
                raise IllegalMoveError("only a joker can be kept aside")
            if state.vowel_rule_active():
                raise IllegalMoveError("vowel rule: a joker must show its vowel now and cannot be kept")
            if action.letter is not None:
                raise IllegalMoveError("a joker kept aside shows no letter yet")
            held = list(state.held)
            held[state.current] = held[state.current] + (HeldJoker(cube.cube_index, cube.cube.letters),)
            return replace(state, taken=state.taken + 1, phase="after", held=tuple(held))
        letter = self._letter_for(state, cube, action.letter, free=joker or marking == "III")
        tile = FieldTile(letter, cube.cube_index, joker)
        return replace(state, taken=state.taken + 1, phase="after", field=state.field + (tile,))

    def _place_zero(self, state: GameState, action: PlaceZero) -> GameState:
        if state.phase != "zero":
            raise IllegalMoveError("no cube was passed on to you from a 0 square")
        cube = state.passed_cube
        assert cube is not None
        letter = self._letter_for(state, cube, action.letter, free=True)
        tile = FieldTile(letter, cube.cube_index, cube.cube.is_joker)
        return replace(state, phase="after", field=state.field + (tile,))

    def _skip(self, state: GameState) -> GameState:
        if state.phase != "start":
            raise IllegalMoveError("you can only skip instead of taking a cube, at the start of your turn")
        if state.skips_left(state.current) <= 0:
            raise IllegalMoveError("you have already skipped your turn once this game")
        skips = list(state.skips)
        skips[state.current] += 1
        return replace(state, skips=tuple(skips), current=self._next(state), turn=state.turn + 1,
                       table=_settled(state.table))

    def _end(self, state: GameState) -> GameState:
        if state.phase == "start":
            raise IllegalMoveError("take a cube (or skip) before ending your turn")
        if state.phase == "zero":
            raise IllegalMoveError("place the cube passed on to you before ending your turn")
        if state.taken < state.n_cubes:
            return replace(state, phase="start", current=self._next(state), turn=state.turn + 1,
                           table=_settled(state.table))
        return self._finish(state)

    def _finish(self, state: GameState) -> GameState:
        """End of game: the last player loses the top values left in the field; held jokers cost their holders."""
        scores = list(state.scores)
        adj = list(state.adjustments)
        last = state.current
        left = sum(self.rules.letter_values[t.letter] for t in state.field)
        if left:
            scores[last] -= left
            adj.append((last, -left, "cubes left in the central field"))
        for holder, jokers in enumerate(state.held):
            for j in jokers:
                cost = self.rules.letter_sum(j.letters)
                scores[holder] -= cost
                adj.append((holder, -cost, f"joker {j.letters.upper()} still held"))
        # the turn counts on past the last one, as when any turn passes: a finished game is at "turns played + 1", the
        # protocol's Result.turn in every game (the rendered header shows the last turn played)
        return replace(state, phase="over", scores=tuple(scores), adjustments=tuple(adj), last_player=last,
                       turn=state.turn + 1, table=_settled(state.table))

    # ------------------------------------------------------------------ claims
    def _claim(self, state: GameState, claim: Claim) -> GameState:
        if state.phase == "zero":
            raise IllegalMoveError("place the cube passed on to you first")
        if state.phase == "start" and not state.game_rules.missed_claims:
            raise IllegalMoveError("claims come after taking a cube")
        word = claim.word
        if not word.isalpha() or any(c not in self.rules.alphabet for c in word):
            raise IllegalMoveError(f"{word!r} has characters outside the alphabet {self.rules.alphabet!r}")
        include_held = state.phase == "after"
        sources = state.tile_sources(include_held=include_held)
        position = state.position(include_held=include_held)
        min_len = self.rules.min_word_length(position.last_cube)
        r = self.rules
        if not claim.parts:
            if len(word) < min_len:
                raise IllegalMoveError(f"{word.upper()} is too short: words need at least {min_len} letters")
            tiles, jokers = self._spell(word, claim.tiles, position, sources, lambda j: r.word_score(word, j))
            if word not in self.lexicon:
                return self._penalise(state, f"{word.upper()} is not a word")
            value = r.word_score(word, jokers)
            new_word = TableWord(word, state.current, jokers, 0, fresh=True)
            return self._commit(state, tiles, sources, (), new_word, value)
        # compound
        parts = claim.parts
        if len(parts) < 2:
            raise IllegalMoveError("a compound needs at least 2 parts")
        idx = [p for p in parts if p is not None]
        if any(not isinstance(p, int) or isinstance(p, bool) for p in idx):
            raise IllegalMoveError("compound parts are table word numbers (or null for the new word)")
        if len(set(idx)) != len(idx):
            raise IllegalMoveError("a compound uses each table word once")
        if not idx:
            raise IllegalMoveError("a compound needs at least one word from the table")
        for p in idx:
            if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(state.table):
                raise IllegalMoveError(f"there is no table word number {p} (the table has {len(state.table)})")
        fresh = [state.table[p].word.upper() for p in idx if state.table[p].fresh]
        if fresh:
            # claimed in this turn: as a part it would score the same play again (KROEGENTOCHT then KROEGENTOCHTEN
            # doubled twice what KROEGEN + TOCHT + EN doubles once; WATER then FIETS then WATERFIETS doubled a word
            # spelled from the field alone)
            raise IllegalMoveError(f"{' and '.join(fresh)} {'was' if len(fresh) == 1 else 'were'} claimed this turn: a compound "
                                   "joins words that lay on the table before the turn (claim the whole compound at once)")
        n_field = len(parts) - len(idx)
        if n_field > 1:
            raise IllegalMoveError("a compound may hold at most one new word from the field")
        if n_field and not (r.compound_with_field_words or position.last_cube):
            raise IllegalMoveError("these rules allow compounds of table words only")
        fixed_len = sum(len(state.table[p].word) for p in idx)
        field_len = len(word) - fixed_len
        if n_field and field_len < min_len:
            raise IllegalMoveError(f"the new part of {word.upper()} is too short: words need at least {min_len} letters")
        pos, field_word = 0, ""
        for part in parts:
            if part is None:
                field_word = word[pos:pos + field_len]
                pos += field_len
            else:
                w = state.table[part].word
                if word[pos:pos + len(w)] != w:
                    raise IllegalMoveError(f"{word.upper()} is not made of the parts "
                                           f"{' + '.join('(new)' if q is None else state.table[q].word.upper() for q in parts)}")
                pos += len(w)
        if pos != len(word):
            raise IllegalMoveError(f"the parts do not spell {word.upper()}")
        level = 1 + max(state.table[p].level for p in idx)
        table_jokers = sum(state.table[p].jokers for p in idx)
        tiles = ()
        jokers = table_jokers
        if n_field:
            tiles, fj = self._spell(field_word, claim.tiles, position, sources,
                                    lambda j: r.compound_score(word, level, table_jokers + j))
            jokers += fj
        elif claim.tiles:
            raise IllegalMoveError("a compound of table words only uses no field tiles")
        if word not in self.lexicon or (field_word and field_word not in self.lexicon):
            bad = word if word not in self.lexicon else field_word
            return self._penalise(state, f"{bad.upper()} is not a word")
        value = r.compound_score(word, level, jokers)
        new_word = TableWord(word, state.current, jokers, level, fresh=True)
        return self._commit(state, tiles, sources, tuple(idx), new_word, value)

    def _spell(self, word: str, tiles: tuple[int, ...] | None, position: KubagramPosition,
               sources: list[tuple[str, int, int]], score: Callable[[int], int]) -> tuple[tuple[int, ...], int]:
        """Tile indices spelling ``word`` and the jokers among them; chooses the best assignment when not given."""
        if tiles is None:
            pool = TilePool.from_tiles(position.tiles)
            best: tuple[int, tuple[int, ...], int] | None = None
            for j in range(min(pool.n_jokers, len(word)), -1, -1):
                got = assign_words([word], pool, [j])
                if got is not None and (best is None or score(j) > best[0]):
                    best = (score(j), got[0], j)
            if best is None:
                raise IllegalMoveError(f"{word.upper()} cannot be spelled with the cubes in the field")
            return best[1], best[2]
        if len(tiles) != len(word):
            raise IllegalMoveError(f"{word.upper()} has {len(word)} letters but {len(tiles)} tiles were given")
        if len(set(tiles)) != len(tiles):
            raise IllegalMoveError("each cube can spell only one letter")
        jokers = 0
        for c, i in zip(word, tiles):
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(position.tiles):
                raise IllegalMoveError(f"there is no tile number {i} (there are {len(position.tiles)})")
            t = position.tiles[i]
            if c not in t.letters:
                shown = t.letters if len(set(t.letters)) == 1 else "/".join(t.options)
                raise IllegalMoveError(f"tile {i} shows {shown.upper()}, not {c.upper()} (placed cubes never change letter)")
            jokers += t.joker
        return tuple(tiles), jokers

    def _penalise(self, state: GameState, reason: str) -> GameState:
        """A claimed non-word costs the claimer the penalty; nothing else changes."""
        pen = state.game_rules.nonword_penalty
        scores = list(state.scores)
        scores[state.current] -= pen
        return replace(state, scores=tuple(scores),
                       adjustments=state.adjustments + ((state.current, -pen, f"claimed non-word: {reason}"),))

    def _commit(self, state: GameState, tiles: tuple[int, ...], sources: list[tuple[str, int, int]],
                table_parts: tuple[int, ...], new_word: TableWord, value: int) -> GameState:
        """Remove used tiles and table parts, score the claim and lay the new word on the table."""
        field_used = {sources[i][1] for i in tiles if sources[i][0] == "field"}
        held_used = {(sources[i][1], sources[i][2]) for i in tiles if sources[i][0] == "held"}
        field = tuple(t for i, t in enumerate(state.field) if i not in field_used)
        held = tuple(tuple(j for k, j in enumerate(h) if (p, k) not in held_used) for p, h in enumerate(state.held))
        scores = list(state.scores)
        for p in table_parts:
            tw = state.table[p]
            scores[tw.owner] -= tw.value(self.rules)
        scores[state.current] += value
        table = tuple(w for i, w in enumerate(state.table) if i not in set(table_parts)) + (new_word,)
        return replace(state, field=field, held=held, table=table, scores=tuple(scores))

    # ------------------------------------------------------------------ legal actions
    def take_options(self, state: GameState) -> list[Action]:
        """Every legal way to take the next cube (letters, keeping a joker), plus skipping when allowed."""
        if state.phase == "zero":
            cube = state.passed_cube
            assert cube is not None
            return [a for a in (PlaceZero(c) for c in cube.cube.top_letters) if self._ok(state, a)]
        if state.phase != "start":
            return []
        cube = state.next_cube
        assert cube is not None
        cands: list[Action] = [Take()] if cube.marking.value == "0" else [Take(c) for c in cube.cube.top_letters]
        if cube.cube.is_joker:
            cands.append(Take(keep=True))
        out = [a for a in cands if self._ok(state, a)]
        if state.skips_left(state.current) > 0:
            out.append(Skip())
        return out

    def _ok(self, state: GameState, action: Action) -> bool:
        try:
            self.apply(state, action)
        except IllegalMoveError:
            return False
        return True

    def claim_options(self, state: GameState, top: int = 10) -> list[Claim]:
        """The ``top`` best word claims and ``top`` best compounds for the player to move (not every legal claim:
        any word spelled by the field is legal)."""
        if state.phase not in ("start", "after") or (state.phase == "start" and not state.game_rules.missed_claims):
            return []
        position = state.position(include_held=state.phase == "after")
        out: list[Claim] = [Claim(w.word, w.tiles) for w in self.solver.best_words(position, top)]
        if position.table:
            out += [claim_from_move(m, position.table) for m in self.solver.compound_moves(position, top, "swing")]
        return out

    def legal_actions(self, state: GameState, claims: int = 10) -> list[Action]:
        """Legal actions for the player to move: taking/skipping/placing options, the best claims, ending the turn."""
        if state.over:
            return []
        out: list[Action] = list(self.take_options(state))
        out += self.claim_options(state, claims)
        if state.phase == "after":
            out.append(EndTurn())
        return out


KubagramReferee = Referee
"""Alias exported from :mod:`kubasolve`."""
