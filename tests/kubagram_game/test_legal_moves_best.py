"""The protocol's Kubagram legal moves: when they say ``proven_optimal``, the first claim listed is the best claim
of all by the score they report (the mover's gain), checked against every compound and word the solver knows."""

from __future__ import annotations

from kubasolve.games import load_game
from kubasolve.games.kubagram.position import TableWord

from .conftest import make_state

FILLER = ("xyz", "x", "I")  # a cube that is never useful


def test_the_first_claim_listed_is_the_best_gain_when_proven(referee) -> None:  # type: ignore[no-untyped-def]
    """The mover's own KROEGEN (3 jokers) + TOCHT make KROEGENTOCHT, gain 1,098, taking nothing; the other player's
    REGENBOOG (a compound) + KLEUR make REGENBOOGKLEUR, gain 1,016, taking 145. Before, the compounds were chosen by
    swing (gain + taken: 1,161 against 1,098), so `top=1` listed REGENBOOGKLEUR alone and said it was proven best."""
    table = (TableWord("kroegen", 0, 3, 0), TableWord("tocht", 0, 0, 0), TableWord("regenboog", 1, 0, 1),
             TableWord("kleur", 1, 0, 0))
    native = make_state([("abc", "a", "I"), FILLER], table=table, phase="after", taken=1)
    game = load_game("kubagram")
    state = game.state_of(native)
    position = native.position()
    every = referee.solver.compound_moves(position, None, "gain")
    best_gain = max(m.gain for m in every)
    best_word = max((w.score for w in referee.solver.best_words(position, None)), default=0)
    best = max(best_gain, best_word)
    assert {m.word: m.gain for m in every}["kroegentocht"] == best == 1098
    for top in (1, 2, 5):
        listed = game.legal_moves(state, top=top)
        scored = [m for m in listed.moves if m.score is not None]
        assert listed.proven_optimal and scored[0].score == best, (top, [(m.text, m.score) for m in scored])
        assert scored[0].action["word"] == "kroegentocht"
        assert game.apply(state, scored[0].action).native.scores[0] - native.scores[0] == best


def _brute_best_gain(words: list[str], position, rules) -> int:
    """The best single claim's gain by brute force: every word of the lexicon tried on the tiles (every joker count),
    every lexicon word split into distinct table words (not fresh) and at most one formable new word."""
    from collections import Counter

    from tests.kubagram.reference import claim_feasible

    min_len = rules.min_word_length(position.last_cube)
    n_jokers = sum(t.joker for t in position.tiles)

    def joker_counts(w: str) -> list[int]:
        if len(w) > len(position.tiles):
            return []
        return [j for j in range(n_jokers + 1) if claim_feasible([w], [j], position)]

    have = Counter(c for t in position.tiles for c in t.options)
    spell = {w: joker_counts(w) for w in words if len(w) >= min_len and all(have[c] >= k for c, k in Counter(w).items())}
    spell = {w: js for w, js in spell.items() if js}
    best = max((rules.word_score(w, max(js)) for w, js in spell.items()), default=0)
    table = position.table
    use_field = rules.compound_with_field_words or position.last_cube
    for w in words:
        stack: list[tuple[int, tuple[int, ...], str | None]] = [(0, (), None)]
        while stack:
            i, used, new = stack.pop()
            if i == len(w):
                if used and len(used) + (new is not None) >= 2:
                    level = 1 + max(table[k].level for k in used)
                    tj = sum(table[k].jokers for k in used)
                    own = sum(table[k].value(rules) for k in used if table[k].owner == position.mover)
                    for j in spell[new] if new else [0]:
                        best = max(best, rules.compound_score(w, level, tj + j) - own)
                continue
            stack += [(i + len(t.word), used + (k,), new) for k, t in enumerate(table)
                      if k not in used and not t.fresh and w.startswith(t.word, i)]
            if new is None and use_field:
                stack += [(e, used, w[i:e]) for e in range(i + min_len, len(w) + 1) if w[i:e] in spell]
    return best


def test_legal_moves_first_claim_is_the_brute_force_best_through_a_self_play_game() -> None:
    """Every position after a take in a greedy self-play game on a small Dutch lexicon (its 17,323 words of 2 to 10
    letters from 12 letters) with words of 3 letters or more (short table words: many compounds): the protocol's first
    claim, proven, is worth what a brute force over the lexicon finds."""
    from kubasolve import load_lexicon
    from kubasolve.games.kubagram.actions import PlaceZero, Take, action_from_dict
    from kubasolve.games.kubagram.ai import GreedyPolicy
    from kubasolve.games.kubagram.protocol import Kubagram
    from kubasolve.lexicon import Lexicon

    nl = load_lexicon("nl")
    words = sorted(w for w in nl if 2 <= len(w) <= 10 and set(w) <= set("aeinorstdlgk"))
    game = load_game("kubagram", rules={"min_length": 3}, lexicon=Lexicon.from_words(words, name="small-nl"))
    assert isinstance(game, Kubagram)
    referee = game.referee
    checked = compounds = 0
    for seed in (1,):
        native = referee.new_game(seed, 2)
        while not native.over:
            for action in GreedyPolicy().turn(referee, native):
                native = referee.apply(native, action_from_dict(action))
                if isinstance(action, (Take, PlaceZero)) and native.phase == "after":
                    listed = game.legal_moves(game.state_of(native), top=1)
                    scored = [m.score for m in listed.moves if m.score is not None]
                    best = _brute_best_gain(words, native.position(), referee.rules)
                    assert listed.proven_optimal and (scored[0] if scored else 0) == best, (seed, native.turn)
                    checked += 1
                    compounds += bool(scored) and "compound" in listed.moves[0].text
    assert checked > 80 and compounds > 0  # 108 positions, 6 of them best answered by a compound
