"""Exceptions for user mistakes: the CLI and the engine turn these into clear messages, never tracebacks."""

from __future__ import annotations


class KubasolveError(Exception):
    """Base class of every error caused by bad input (a user mistake), not by a bug."""


class LexiconError(KubasolveError):
    """A word list or lexicon cannot be read or built (missing file, bad encoding, empty list...)."""


class RulesError(KubasolveError):
    """A rule set is invalid (bad TOML, out-of-range setting, unknown letter...)."""


class PositionError(KubasolveError):
    """A game position or request is invalid (unknown letter, bad tile spec, too many tiles...)."""


class IllegalMoveError(KubasolveError):
    """A move breaks the rules; the game state is left unchanged."""
