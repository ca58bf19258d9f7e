"""Kubagram move generation: best words from the field, compound moves, and best whole claims.

:class:`KubagramSolver` prepares a lexicon and a rule set once (letter values, in-memory arrays)
and answers many positions; the module-level functions keep one solver per (lexicon, rules).
The heavy lifting is done by the numba kernels ``word_search`` and ``compound_search``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from kubasolve.errors import PositionError, RulesError
from kubasolve.games.kubagram.assign import TilePool, assign_words
from kubasolve.games.kubagram.moves import Claim, CompoundMove, WordMove
from kubasolve.games.kubagram.position import KubagramPosition
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.lexicon import Lexicon

Objective = Literal["gain", "swing"]
"""``gain``: the mover's own score change; ``swing``: gain plus the points taken from others."""


@dataclass(frozen=True)
class WordTable:
    """All words found for a position, as arrays sorted best first (ties in alphabet order).

    This is the fast, allocation-light form for AIs; :meth:`KubagramSolver.best_words` turns rows
    into :class:`WordMove` objects with tile assignments.
    """

    word_ids: np.ndarray
    lengths: np.ndarray
    jokers: np.ndarray
    scores: np.ndarray
    codes: np.ndarray

    def __len__(self) -> int:
        return int(self.word_ids.shape[0])


@dataclass(frozen=True)
class _Pool:
    fixed_counts: np.ndarray
    flex_masks: np.ndarray
    flex_joker: np.ndarray
    topsum: np.ndarray
    tiles: TilePool


class KubagramSolver:
    """Move generator for one lexicon and one rule set."""

    def __init__(self, lexicon: Lexicon, rules: KubagramRules | None = None) -> None:
        rules = rules or KubagramRules()
        if lexicon.alphabet.letters != rules.alphabet:
            raise RulesError(f"the rules' alphabet {rules.alphabet!r} differs from the lexicon's {lexicon.alphabet.letters!r}")
        self.lexicon = lexicon
        self.rules = rules
        self.arrays = lexicon.compiled.in_memory()
        self.root = (0, int(self.arrays.first_edge[1]))
        self.values = np.array([rules.letter_values[c] for c in rules.alphabet], np.int64)
        self._code = {c: i for i, c in enumerate(rules.alphabet)}

    # ------------------------------------------------------------------ pools
    def _pool(self, position: KubagramPosition) -> _Pool:
        position.validate(self.rules)
        n = len(self.rules.alphabet)
        fixed = np.zeros(n, np.int64)
        masks, jokers, tile_values = [], [], []
        for t in position.tiles:
            if t.fixed:
                fixed[self._code[t.letters[0]]] += 1
                tile_values.append(int(self.values[self._code[t.letters[0]]]))
            else:
                m = 0
                for c in t.letters:
                    m |= 1 << self._code[c]
                masks.append(m)
                jokers.append(1 if t.joker else 0)
                tile_values.append(max(int(self.values[self._code[c]]) for c in t.letters))
        topsum = np.zeros(len(tile_values) + 1, np.int64)
        topsum[1:] = np.cumsum(sorted(tile_values, reverse=True))
        return _Pool(fixed, np.array(masks, np.int64), np.array(jokers, np.int8), topsum, TilePool.from_tiles(position.tiles))

    def _search(self, pool: _Pool, min_len: int, top: int, start: tuple[int, int] | None = None) -> WordTable:
        from kubasolve.kernels.word_search import search_words

        lo, hi = start or self.root
        r = self.rules
        ends, lengths, jokers, scores, codes = search_words(
            self.arrays.search_edges, lo, hi, pool.fixed_counts, pool.flex_masks, pool.flex_joker,
            min_len, 255, self.values, r.bonus_from, r.bonus_step, r.joker_factor, top, pool.topsum,
        )
        order = np.argsort(-scores, kind="stable")
        if top > 0:
            order = order[:top]
        return WordTable(self.arrays.edge_word[ends[order]], lengths[order], jokers[order], scores[order], codes[order])

    # ------------------------------------------------------------------ words
    def word_table(self, position: KubagramPosition, top: int | None = None) -> WordTable:
        """All words (or the ``top`` best) formable from the field, as arrays sorted best first."""
        if top is not None and top < 1:
            raise PositionError("top must be at least 1")
        pool = self._pool(position)
        return self._search(pool, self.rules.min_word_length(position.last_cube), top or 0)

    def best_words(self, position: KubagramPosition, top: int | None = None) -> list[WordMove]:
        """Words formable from distinct field tiles, best first, each with its best assignment.

        Score = (letters + length bonus) x joker_factor^jokers, using as many jokers as fit; ties are
        ordered by word (alphabet order). ``top=None`` returns all.
        """
        if top is not None and top < 1:
            raise PositionError("top must be at least 1")
        pool = self._pool(position)
        table = self._search(pool, self.rules.min_word_length(position.last_cube), top or 0)
        return [self._word_move(self.lexicon.word(int(w)), int(j), pool.tiles) for w, j in zip(table.word_ids, table.jokers)]

    def _word_move(self, word: str, jokers: int, tiles: TilePool) -> WordMove:
        assignment = assign_words([word], tiles, [jokers])
        if assignment is None:  # the kernel and the assignment search disagree: a bug, never silent
            raise AssertionError(f"no assignment with {jokers} joker(s) for {word!r}")
        r = self.rules
        mult = r.joker_factor**jokers
        letters = r.letter_sum(word)
        bonus = r.length_bonus(len(word))
        return WordMove(word, assignment[0], jokers, letters, bonus, mult, (letters + bonus) * mult)

    # ------------------------------------------------------------------ compounds
    def compound_moves(self, position: KubagramPosition, top: int | None = None, objective: Objective = "gain") -> list[CompoundMove]:
        """Compounds of >= 2 parts: table words of any player and, where the rules allow, one new
        field word; best first by ``objective`` (ties by word, then parts)."""
        from kubasolve.kernels.compound_search import search_compounds

        table = position.table
        if not table:
            return []
        if len(table) > 63:
            raise PositionError("at most 63 words on the table")
        pool = self._pool(position)
        r = self.rules
        use_field = (r.compound_with_field_words or position.last_cube) and len(position.tiles) > 0
        field = self._search(pool, r.min_word_length(position.last_cube), 0) if use_field else None
        parts: list[np.ndarray] = []
        for w in table:
            try:
                parts.append(self.lexicon.alphabet.encode(w.word))
            except Exception:
                raise PositionError(f"table word {w.word!r} has letters outside the alphabet") from None
        n_field = len(field) if field is not None else 0
        if field is not None:
            parts.extend(field.codes[i, : field.lengths[i]] for i in range(n_field))
        offsets = np.zeros(len(parts) + 1, np.int64)
        offsets[1:] = np.cumsum([len(p) for p in parts])
        codes = np.concatenate(parts).astype(np.uint8) if parts else np.zeros(0, np.uint8)
        flat, offs = search_compounds(
            self.arrays.search_edges, self.root[0], self.root[1], codes, offsets, len(table), 1 if field is not None else 0, len(table) + 1
        )
        moves = []
        for s in range(len(offs) - 1):
            seq = [int(p) for p in flat[offs[s] : offs[s + 1]]]
            move = self._compound_move(position, seq, field, pool)
            if move is not None:
                moves.append(move)
        key = (lambda m: (-m.gain, m.word, m.parts)) if objective == "gain" else (lambda m: (-(m.gain + m.taken), m.word, m.parts))
        moves.sort(key=key)
        return moves[:top] if top else moves

    def _compound_move(self, position: KubagramPosition, seq: list[int], field: WordTable | None, pool: _Pool) -> CompoundMove | None:
        r = self.rules
        n_table = len(position.table)
        table_idx = [p for p in seq if p < n_table]
        parts = []
        field_move = None
        for p in seq:
            if p < n_table:
                parts.append(position.table[p].word)
            else:
                assert field is not None
                parts.append(self.lexicon.word(int(field.word_ids[p - n_table])))
        word = "".join(parts)
        level = 1 + max((position.table[p].level for p in table_idx), default=0)
        table_jokers = sum(position.table[p].jokers for p in table_idx)
        jokers = table_jokers
        if len(table_idx) < len(seq):
            fw = parts[[i for i, p in enumerate(seq) if p >= n_table][0]]
            fj = int(field.jokers[[p for p in seq if p >= n_table][0] - n_table])  # type: ignore[union-attr]
            # with no joker in the table parts, a compound may score more without jokers (2^level)
            options = sorted({fj, 0}, key=lambda j: -r.compound_score(word, level, table_jokers + j))
            for j in options:
                assignment = assign_words([fw], pool.tiles, [j])
                if assignment is not None:
                    field_move = WordMove(fw, assignment[0], j, r.letter_sum(fw), r.length_bonus(len(fw)), r.joker_factor**j, r.word_score(fw, j))
                    jokers = table_jokers + j
                    break
            if field_move is None:
                return None
        score = r.compound_score(word, level, jokers)
        lost: dict[int, int] = {}
        for p in table_idx:
            tw = position.table[p]
            lost[tw.owner] = lost.get(tw.owner, 0) + tw.value(r)
        base = r.letter_sum(word) + r.length_bonus(len(word))
        mult = score // base if base else (r.joker_factor**jokers if jokers else r.compound_factor**level)
        return CompoundMove(
            word, tuple(parts), tuple(table_idx), field_move, level, jokers,
            r.letter_sum(word), r.length_bonus(len(word)), mult, score, tuple(sorted(lost.items())), position.mover,
        )

    # ------------------------------------------------------------------ claims
    def best_move(self, position: KubagramPosition, objective: Objective = "gain", max_words: int | None = None) -> Claim:
        """The best claim of up to ``max_words`` (default: the rules' ``max_claim_words``, at most 3)
        words and compounds using disjoint field tiles and distinct table words; exact."""
        limit = max_words or self.rules.max_claim_words
        if not 1 <= limit <= 3:
            raise PositionError("max_words must be 1, 2 or 3")
        pool = self._pool(position)
        r = self.rules
        table = self._search(pool, r.min_word_length(position.last_cube), 0)
        words = [self.lexicon.word(int(w)) for w in table.word_ids]
        items: list[tuple[int, object]] = [(int(s), ("w", i)) for i, s in enumerate(table.scores)]
        compounds = self.compound_moves(position, objective=objective)
        for c in compounds:
            v = c.gain + (c.taken if objective == "swing" else 0)
            if v > 0:
                items.append((v, ("c", c)))
        items.sort(key=lambda it: -it[0])
        values = [v for v, _ in items]
        n_letters = len(r.alphabet)
        counts = np.zeros((len(items), n_letters), np.int64)
        table_sets: list[frozenset[int]] = []
        for row, (_, (kind, obj)) in enumerate(items):
            if kind == "w":
                counts[row] = np.bincount(table.codes[obj, : table.lengths[obj]], minlength=n_letters)
                table_sets.append(frozenset())
            else:
                if obj.field_word is not None:
                    counts[row] = np.bincount(self.lexicon.alphabet.encode(obj.field_word.word), minlength=n_letters)
                table_sets.append(frozenset(obj.table_parts))
        flex_cap = np.zeros(n_letters, np.int64)
        for k in range(len(pool.flex_masks)):
            for c in range(n_letters):
                flex_cap[c] += (int(pool.flex_masks[k]) >> c) & 1
        n_flex = len(pool.flex_masks)

        def fits(combo: tuple[int, ...]) -> bool:
            """Necessary condition: letters within fixed + flex capacity, table words distinct."""
            seen: set[int] = set()
            for i in combo:
                if seen & table_sets[i]:
                    return False
                seen |= table_sets[i]
            need = counts[list(combo)].sum(axis=0)
            return bool(np.all(need <= pool.fixed_counts + flex_cap) and np.maximum(need - pool.fixed_counts, 0).sum() <= n_flex)

        best_value, best_claim = 0, Claim()
        for combo in _combinations_above(values, limit, lambda: best_value):
            if not fits(combo):
                continue
            chosen = [items[i][1] for i in combo]
            field_words = [words[obj] if kind == "w" else obj.field_word.word for kind, obj in chosen if kind == "w" or obj.field_word is not None]
            got = self._joint(chosen, words, field_words, pool, objective)
            if got is not None and got[0] > best_value:
                best_value, best_claim = got
        return best_claim

    def _joint(self, chosen, words, field_words, pool: _Pool, objective: Objective) -> tuple[int, Claim] | None:
        """Best joint joker distribution for the chosen items; None if their tiles clash."""
        r = self.rules
        n_jok = pool.tiles.n_jokers
        field_items = [(k, obj) for k, obj in chosen if k == "w" or obj.field_word is not None]
        if not field_items:
            claim = Claim((), tuple(obj for _, obj in chosen))
            return _claim_value(claim, objective), claim
        caps = [min(n_jok, len(fw)) for fw in field_words]
        best: tuple[int, Claim] | None = None
        for js in itertools.product(*(range(c + 1) for c in caps)):
            if sum(js) > n_jok:
                continue
            ws: list[WordMove] = []
            cs: list[CompoundMove] = []
            fi = 0
            value_guess = 0
            for k, obj in chosen:
                if k == "w":
                    w = words[obj]
                    value_guess += r.word_score(w, js[fi])
                    fi += 1
                elif obj.field_word is not None:
                    tj = obj.jokers - obj.field_word.jokers
                    value_guess += r.compound_score(obj.word, obj.level, tj + js[fi]) - (obj.score - obj.gain - (obj.taken if objective == "swing" else 0))
                    fi += 1
                else:
                    value_guess += obj.gain + (obj.taken if objective == "swing" else 0)
            if best is not None and value_guess <= best[0]:
                continue
            assignment = assign_words(field_words, pool.tiles, list(js))
            if assignment is None:
                continue
            fi = 0
            for k, obj in chosen:
                if k == "w":
                    w = words[obj]
                    ws.append(WordMove(w, assignment[fi], js[fi], r.letter_sum(w), r.length_bonus(len(w)), r.joker_factor ** js[fi], r.word_score(w, js[fi])))
                    fi += 1
                elif obj.field_word is not None:
                    fw = obj.field_word.word
                    new_field = WordMove(fw, assignment[fi], js[fi], r.letter_sum(fw), r.length_bonus(len(fw)), r.joker_factor ** js[fi], r.word_score(fw, js[fi]))
                    tj = obj.jokers - obj.field_word.jokers
                    score = r.compound_score(obj.word, obj.level, tj + js[fi])
                    base = obj.letters + obj.bonus
                    cs.append(CompoundMove(obj.word, obj.parts, obj.table_parts, new_field, obj.level, tj + js[fi], obj.letters, obj.bonus, score // base if base else 1, score, obj.lost, obj.mover))
                    fi += 1
                else:
                    cs.append(obj)
            claim = Claim(tuple(ws), tuple(cs))
            value = _claim_value(claim, objective)
            if best is None or value > best[0]:
                best = (value, claim)
        return best


def _claim_value(claim: Claim, objective: Objective) -> int:
    return claim.gain + (claim.taken if objective == "swing" else 0)


def _combinations_above(values: Sequence[int], max_size: int, floor) -> Iterator[tuple[int, ...]]:
    """Index combinations of 1..max_size items (``values`` sorted descending) whose value sum could
    exceed ``floor()``, re-read at every step so the search tightens as better claims are found."""
    n = len(values)
    for i in range(n):
        if values[i] <= floor() and max_size == 1:
            break
        if values[i] > floor():
            yield (i,)
        if max_size < 2:
            continue
        if i + 1 >= n or values[i] + values[i + 1] + (values[i + 2] if max_size >= 3 and i + 2 < n else 0) <= floor():
            break
        for j in range(i + 1, n):
            if values[i] + values[j] + (values[j + 1] if max_size >= 3 and j + 1 < n else 0) <= floor():
                break
            if values[i] + values[j] > floor():
                yield (i, j)
            if max_size < 3:
                continue
            for k in range(j + 1, n):
                if values[i] + values[j] + values[k] <= floor():
                    break
                yield (i, j, k)


_SOLVERS: dict[tuple[int, KubagramRules], KubagramSolver] = {}


def solver_for(lexicon: Lexicon, rules: KubagramRules | None = None) -> KubagramSolver:
    """The cached solver for (lexicon, rules)."""
    rules = rules or KubagramRules()
    key = (id(lexicon), rules)
    solver = _SOLVERS.get(key)
    if solver is None or solver.lexicon is not lexicon:
        solver = _SOLVERS[key] = KubagramSolver(lexicon, rules)
    return solver


def best_words(position: KubagramPosition, lexicon: Lexicon, rules: KubagramRules | None = None, top: int | None = None) -> list[WordMove]:
    """Words formable from the field, best first (see :meth:`KubagramSolver.best_words`)."""
    return solver_for(lexicon, rules).best_words(position, top)


def compound_moves(position: KubagramPosition, lexicon: Lexicon, rules: KubagramRules | None = None, top: int | None = None, objective: Objective = "gain") -> list[CompoundMove]:
    """Compound moves, best first (see :meth:`KubagramSolver.compound_moves`)."""
    return solver_for(lexicon, rules).compound_moves(position, top, objective)


def best_move(position: KubagramPosition, lexicon: Lexicon, rules: KubagramRules | None = None, objective: Objective = "gain", max_words: int | None = None) -> Claim:
    """The best whole claim (see :meth:`KubagramSolver.best_move`)."""
    return solver_for(lexicon, rules).best_move(position, objective, max_words)
