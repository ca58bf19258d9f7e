"""Word lists -> marisa-tries + compiled numba arrays, with an on-disk cache."""

from kubasolve.lexicon.alphabet import LATIN, Alphabet, normalize_text, normalize_word, word_alphabet
from kubasolve.lexicon.compiled import CompiledLexicon
from kubasolve.lexicon.lexicon import Lexicon, LexiconInfo, load_lexicon
from kubasolve.lexicon.wordlist import WordListReport

__all__ = ["LATIN", "Alphabet", "normalize_text", "normalize_word", "CompiledLexicon", "Lexicon", "LexiconInfo", "WordListReport", "load_lexicon", "word_alphabet"]
