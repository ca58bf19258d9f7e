"""The :class:`Lexicon`: a word set with membership, prefix and suffix enumeration, and compiled arrays.

Strings live in two marisa-tries (words, and reversed words for suffixes); the search kernels use
the :class:`~kubasolve.lexicon.compiled.CompiledLexicon` arrays. Word ids are marisa key ids.
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import marisa_trie
import numpy as np

from kubasolve.errors import LexiconError
from kubasolve.lexicon import cache
from kubasolve.lexicon.alphabet import LATIN, Alphabet, word_alphabet
from kubasolve.lexicon.compiled import CompiledLexicon, compile_lexicon
from kubasolve.lexicon.layout import LETTER_BITS, LETTER_MASK
from kubasolve.lexicon.wordlist import WordListReport, parse_words, read_text, wordlist_lines


@dataclass(frozen=True)
class LexiconInfo:
    """Facts about a loaded lexicon, for ``kubasolve lexicon info``."""

    name: str
    source: str
    alphabet: str
    words: int
    trie_nodes: int
    compiled_bytes: int
    cache_dir: str | None
    from_cache: bool
    report: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Lexicon:
    """An immutable word set over an :class:`Alphabet`.

    Build one with :meth:`from_wordlist` (cached on disk) or :meth:`from_words` (in memory), or use
    :func:`kubasolve.load_lexicon` for a bundled list such as ``"nl"``.
    """

    def __init__(
        self,
        name: str,
        alphabet: Alphabet,
        trie: marisa_trie.Trie,
        rtrie: marisa_trie.Trie,
        compiled: CompiledLexicon,
        report: WordListReport | dict[str, Any] | None = None,
        source: str = "<memory>",
        cache_dir: Path | None = None,
        from_cache: bool = False,
    ) -> None:
        self.name = name
        self.alphabet = alphabet
        self.trie = trie
        self.rtrie = rtrie
        self.compiled = compiled
        self.report: dict[str, Any] = report.as_dict() if isinstance(report, WordListReport) else dict(report or {})
        self.source = source
        self.cache_dir = cache_dir
        self.from_cache = from_cache
        self._edge_need: np.ndarray | None = None

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_words(cls, words: list[str] | tuple[str, ...] | set[str], alphabet: Alphabet | str = LATIN, name: str = "custom") -> Lexicon:
        """Build in memory (no cache) from an iterable of words; bad words are counted in ``report``."""
        if isinstance(words, (str, bytes, bytearray)):  # iterating it would make every character a word
            raise LexiconError(f"words must be a list (or set, tuple) of words, not one {type(words).__name__}")
        items = list(words)
        for i, word in enumerate(items):
            if not isinstance(word, str):
                raise LexiconError(f"words[{i}] must be a str, got {type(word).__name__}")
        alpha = word_alphabet(alphabet)
        clean, report = parse_words(items, alpha, source=name)
        trie, rtrie, compiled = _build(clean, alpha)
        return cls(name, alpha, trie, rtrie, compiled, report)

    @classmethod
    def from_wordlist(
        cls,
        path: str | Path,
        alphabet: Alphabet | str = LATIN,
        *,
        name: str | None = None,
        lowercase: bool = True,
        use_cache: bool = True,
    ) -> Lexicon:
        """Load a UTF-8 word list (one word a line; ``.xz``/``.gz`` ok), compiled once into the cache.

        Lines with letters outside ``alphabet`` are skipped and counted (see ``report``); a missing
        file, non-UTF-8 bytes or an empty list raise :class:`LexiconError`.
        """
        if not isinstance(path, (str, os.PathLike)) or str(path) == "":
            raise LexiconError(f"a word list is a file path (str or Path), got {path!r:.40}")
        alpha = word_alphabet(alphabet, lowercase)
        p = Path(path)
        name = name or p.name.split(".")[0]
        try:
            source_bytes = p.read_bytes()
        except FileNotFoundError:
            raise LexiconError(f"word list {str(p)!r} does not exist") from None
        except IsADirectoryError:
            raise LexiconError(f"word list {str(p)!r} is a directory, not a file") from None
        except OSError as exc:
            raise LexiconError(f"cannot read word list {str(p)!r}: {exc}") from None
        key = cache.cache_key(source_bytes, {"alphabet": alpha.letters, "lowercase": lowercase, "suffix": p.suffix})
        folder = cache.cache_dir_for(key) if use_cache else None
        if folder is not None:
            hit = cache.load(folder, key, len(alpha))
            if hit is not None:
                meta, trie, rtrie, compiled = hit
                report = meta.get("report")
                if isinstance(report, dict):  # the cache is keyed by content: it may have been built from a copy elsewhere
                    report = {**report, "source": str(p)}
                return cls(name, alpha, trie, rtrie, compiled, report, str(p), folder, from_cache=True)
        text = read_text(p)
        words, report = parse_words(wordlist_lines(text), alpha, source=str(p), lowercase=lowercase)
        trie, rtrie, compiled = _build(words, alpha)
        saved = False
        if folder is not None:
            meta = {"name": name, "source": str(p), "alphabet": alpha.letters, "n_words": len(words), "report": report.as_dict()}
            saved = cache.save(folder, key, meta, trie, rtrie, compiled)
            # Use the cached files right away: read-only memory maps are what every later run gets, so the
            # kernels are compiled for those array types once (in-memory arrays would need a second set).
            hit = cache.load(folder, key, len(alpha)) if saved else None
            if hit is not None:
                _, trie, rtrie, compiled = hit
        return cls(name, alpha, trie, rtrie, compiled, report, str(p), folder if saved else None)

    # ----------------------------------------------------------------- lookups
    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self.trie

    def __len__(self) -> int:
        return len(self.trie)

    def __iter__(self) -> Iterator[str]:
        """All words in alphabet order."""
        from kubasolve.kernels.trie_walk import terminal_ids_below

        c = self.compiled
        restore = self.trie.restore_key
        for wid in terminal_ids_below(c.first_edge, c.edges, c.node_word, 0):
            yield restore(int(wid))

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} words, alphabet={self.alphabet.letters!r})"

    def word_id(self, word: str) -> int:
        """Id of ``word`` (row of the count matrix, value in ``node_word``); -1 if not a word."""
        try:
            return int(self.trie.key_id(word))
        except KeyError:
            return -1

    def word(self, word_id: int) -> str:
        """The word with id ``word_id``."""
        return self.trie.restore_key(int(word_id))

    def words_with_prefix(self, prefix: str, limit: int | None = None) -> list[str]:
        """Words starting with ``prefix`` (itself included if a word), in alphabet order; the first
        ``limit`` of them are found without listing (or sorting) the rest."""
        if limit is None:
            return self.alphabet.sort(self.trie.keys(prefix))
        restore = self.trie.restore_key
        return [restore(int(wid)) for wid in self._first_ids_with_prefix(prefix, max(0, limit))]

    def words_with_suffix(self, suffix: str, limit: int | None = None) -> list[str]:
        """Words ending with ``suffix`` (itself included if a word), in alphabet order."""
        matches = (w[::-1] for w in self.rtrie.keys(suffix[::-1]))
        if limit is None:
            return self.alphabet.sort(matches)
        key = None if self.alphabet._unicode_ordered else self.alphabet.sort_key
        return heapq.nsmallest(max(0, limit), matches, key=key)

    _DFS_LIMIT = 2000
    """Up to this many words, :meth:`_first_ids_with_prefix` walks the trie in Python and stops early;
    above it the compiled walk lists the whole subtree (faster per word) and the list is cut."""

    def _first_ids_with_prefix(self, prefix: str, limit: int) -> list[int]:
        """Ids of the first ``limit`` words starting with ``prefix``, in alphabet order: the CSR trie's
        pre-order (children in letter-code order, a node before its extensions) is alphabet order."""
        c = self.compiled
        first_edge, edges, node_word = c.first_edge, c.edges, c.node_word
        node = 0
        for letter in prefix:
            code = self.alphabet._index.get(letter)
            if code is None:
                return []
            lo, hi = int(first_edge[node]), int(first_edge[node + 1])
            labels = edges[lo:hi] & LETTER_MASK
            at = int(np.searchsorted(labels, code))
            if at == hi - lo or labels[at] != code:
                return []
            node = int(edges[lo + at] >> LETTER_BITS)
        if limit == 0:
            return []
        if limit > self._DFS_LIMIT:
            from kubasolve.kernels.trie_walk import terminal_ids_below

            return terminal_ids_below(first_edge, edges, node_word, node)[:limit].tolist()
        out: list[int] = []
        stack = [node]
        while stack and len(out) < limit:
            v = stack.pop()
            wid = int(node_word[v])
            if wid >= 0:
                out.append(wid)
            lo, hi = int(first_edge[v]), int(first_edge[v + 1])
            if hi > lo:
                stack.extend((edges[lo:hi] >> LETTER_BITS)[::-1].tolist())  # smallest letter on top
        return out

    def has_prefix(self, prefix: str) -> bool:
        """True when some word starts with ``prefix``."""
        return prefix == "" or next(self.trie.iterkeys(prefix), None) is not None

    def encode(self, word: str) -> np.ndarray:
        """Letter codes of ``word`` (see :meth:`Alphabet.encode`)."""
        return self.alphabet.encode(word)

    def edge_need(self) -> np.ndarray:
        """Per search edge, the letters every word (and every longest word) through it needs (``kernels.word_search.edge_requirements``):
        derived from ``compiled.search_edges`` on first use (~10 ms) and kept in memory, so the on-disk
        format does not change."""
        if self._edge_need is None:
            from kubasolve.kernels.word_search import edge_requirements

            edges = np.asarray(self.compiled.search_edges).view(np.ndarray)
            self._edge_need = edge_requirements(edges, int(self.compiled.first_edge[1]))
        return self._edge_need

    def info(self) -> LexiconInfo:
        return LexiconInfo(
            name=self.name,
            source=self.source,
            alphabet=self.alphabet.letters,
            words=len(self),
            trie_nodes=self.compiled.n_nodes,
            compiled_bytes=self.compiled.nbytes,
            cache_dir=str(self.cache_dir) if self.cache_dir else None,
            from_cache=self.from_cache,
            report=self.report,
        )


def _build(words: list[str], alphabet: Alphabet) -> tuple[marisa_trie.Trie, marisa_trie.Trie, CompiledLexicon]:
    trie = marisa_trie.Trie(words)
    rtrie = marisa_trie.Trie([w[::-1] for w in words])
    ids = np.array(list(map(trie.key_id, words)), dtype=np.int32).reshape(len(words))
    compiled = compile_lexicon(words, ids, alphabet)
    for arr in compiled.arrays().values():
        # Read-only like the cached memory maps: the kernels then see one array type (numba compiles a
        # read-only and a writable array apart), whether the lexicon came from the cache, was just
        # built, or lives in memory only (from_words, or a cache that could not be written).
        arr.flags.writeable = False
    return trie, rtrie, compiled


_LOADED: dict[tuple[str, str], Lexicon] = {}


def load_lexicon(name: str = "nl", alphabet: Alphabet | str | None = None) -> Lexicon:
    """A bundled lexicon by name (``"nl"``) or a word-list file by path; loaded once per process."""
    from kubasolve.lexicon.bundled import BUNDLED, bundled_path

    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str) or not name:
        raise LexiconError(f"a lexicon is a bundled name ({', '.join(sorted(BUNDLED))}) or a word-list path, got {name!r:.40}")
    alpha_text = alphabet.letters if isinstance(alphabet, Alphabet) else alphabet
    memo = (name, alpha_text or "")
    if memo in _LOADED:
        return _LOADED[memo]
    if name in BUNDLED:
        entry, path = bundled_path(name)
        lex = Lexicon.from_wordlist(path, entry.alphabet if alpha_text is None else alpha_text, name=name)
    elif Path(name).exists() or "/" in name or "." in name:
        lex = Lexicon.from_wordlist(name, LATIN if alpha_text is None else alpha_text)
    else:
        bundled_path(name)  # raises the "no bundled lexicon" error
        raise AssertionError("unreachable")
    _LOADED[memo] = lex
    return lex
