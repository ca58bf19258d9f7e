"""The one place that defines the compiled lexicon's array layout (format version and bit packing).

A lexicon over an alphabet of ``A`` letters (letter codes ``0..A-1``, ``A <= 63``) compiles to:

``first_edge``  int32[n_nodes + 1]
    CSR row pointers: the out-edges of node ``v`` are ``edges[first_edge[v]:first_edge[v + 1]]``,
    sorted by letter code. Node 0 is the root (the empty prefix). Nodes are numbered in depth-first
    pre-order of the sorted word list, so every parent has a smaller index than its children.
``edges``       uint32[n_edges]
    One packed edge: ``(child << LETTER_BITS) | letter``; ``letter = e & LETTER_MASK``,
    ``child = e >> LETTER_BITS``. Up to 2**26 nodes.
``node_word``   int32[n_nodes]
    Word id of the word that ends at the node (the terminal flag), or ``NO_WORD`` (-1).
``node_height`` uint8[n_nodes]
    Length of the longest path from the node down to a terminal (0 at a leaf): bounds for pruning.
``search_edges`` uint64[n_search_edges]
    The search graph: the trie minimised into a DAWG (equal sub-tries stored once), so a search
    touches far fewer cache lines. One packed edge: bits 0-5 letter, bit 7 target is terminal,
    bits 8-15 target's height, bits 16-23 target's number of out-edges, bits 32-63 index in
    ``search_edges`` of the target's first out-edge. The root's out-edges are ``0:first_edge[1]``.
    Edge lists are laid out for cache locality (nodes up to depth ``SEARCH_HOT_DEPTH`` level by
    level, deeper nodes depth-first).
``edge_rank``   uint32[n_search_edges]
    What taking the edge adds to a word's rank (its index in sorted order): 1 if the source node is
    a word, plus the number of words below the earlier sibling edges. Summed along a path, the
    rank of the word spelled.
``rank_word``   int32[n_words]
    Word id of the word of each rank.
``word_counts`` uint8[n_words, A]
    Per-word letter-count matrix, row = word id (``word_counts[w, c]`` = occurrences of letter ``c``).
``word_length`` uint8[n_words]
    Word length in letters.

Word ids are the key ids of the marisa-trie of the words (``Trie.key_id`` / ``restore_key``), so a
kernel's answer maps back to strings without a Python list of 350k words in memory.
"""

from __future__ import annotations

FORMAT_VERSION = 4
"""Bump when any array above changes meaning; older caches are then rebuilt."""

LETTER_BITS = 6
LETTER_MASK = (1 << LETTER_BITS) - 1
MAX_ALPHABET = LETTER_MASK  # codes 0..62; 63 is reserved
MAX_WORD_LENGTH = 255
NO_WORD = -1
SEARCH_TERMINAL_SHIFT = 7
SEARCH_HEIGHT_SHIFT = 8
SEARCH_NCHILD_SHIFT = 16
SEARCH_FIRST_SHIFT = 32
SEARCH_HOT_DEPTH = 3
