"""Which lexicons the engine serves: the bundled ones and the word lists the person running it named.

A frontend passes its users' requests on, so a request's ``lexicon`` is a *name*, never a path: the engine
never opens a file a request names, and never quotes a word list's contents in an answer (a list that does
not load is answered ``bad-lexicon`` with the name only; the reason goes to the engine's stderr). Besides
the bundled lists, the engine serves what its operator names on the command line
(``kubasolve engine --lexicon NAME=PATH``, ``--lexicon-dir DIR``; see docs/engine.md, "Lexicons").

Every engine command that takes ``lexicon`` loads it through :func:`resolve_lexicon`, the one place of
this policy.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from kubasolve.errors import LexiconError

log = logging.getLogger("kubasolve.engine")

NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$")
"""A served lexicon's name: what a request's ``lexicon`` may hold (no path separator, no leading dot)."""
DIR_SUFFIXES = (".txt", ".txt.gz", ".txt.xz")
"""The word-list files of a ``--lexicon-dir`` folder: ``NAME.txt`` (or compressed) is served as ``NAME``."""

_named: dict[str, Path] = {}
_dirs: list[Path] = []
_loaded: dict[tuple[str, str, str], Any] = {}
"""The operator's lists loaded, by (served name, file, alphabet): each loaded once per process."""


def configure(named: Mapping[str, str | Path] | None = None, dirs: Iterable[str | Path] = ()) -> None:
    """Serve, besides the bundled lexicons, the lists ``named`` (name -> word-list file) and the ``NAME.txt``
    files of the folders ``dirs``; replaces an earlier configuration. Raises :class:`LexiconError` for a bad
    name, a name of a bundled lexicon, or a file or folder that does not exist (checked now, loaded on use)."""
    from kubasolve.lexicon.bundled import BUNDLED

    files: dict[str, Path] = {}
    for name, path in (named or {}).items():
        if not NAME_PATTERN.match(name):
            raise LexiconError(f"lexicon name {name[:70]!r}: letters, digits, '_', '-' and '.' only (at most 64, "
                               "not starting with '.')")
        if name in BUNDLED:
            raise LexiconError(f"lexicon name {name!r} is a bundled lexicon's; choose another name")
        p = Path(path).expanduser()
        if not p.is_file():
            what = "is a folder, not a word-list file" if p.is_dir() else "does not exist"
            raise LexiconError(f"lexicon {name!r}: the word-list file {str(p)!r} {what}")
        files[name] = p.resolve()
    folders = []
    for d in dirs:
        p = Path(d).expanduser()
        if not p.is_dir():
            what = "is a file, not a folder (--lexicon NAME=PATH serves one file)" if p.exists() else "does not exist"
            raise LexiconError(f"lexicon folder {str(p)!r} {what}")
        folders.append(p.resolve())
    _named.clear()
    _named.update(files)
    _loaded.clear()
    _dirs[:] = folders


def _dir_file(name: str) -> Path | None:
    """The word-list file of ``name`` in a configured folder (the first folder that has it), if any."""
    if not NAME_PATTERN.match(name):
        return None
    for folder in _dirs:
        for suffix in DIR_SUFFIXES:
            path = folder / f"{name}{suffix}"
            if path.is_file():
                return path
    return None


def served_names() -> list[str]:
    """Every lexicon name a request may give: the bundled ones, the named lists, the lists in the folders."""
    from kubasolve.lexicon.bundled import BUNDLED

    names = set(BUNDLED) | set(_named)
    for folder in _dirs:
        try:
            entries = list(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            for suffix in DIR_SUFFIXES:
                stem = entry.name.removesuffix(suffix)
                if stem != entry.name and NAME_PATTERN.match(stem) and entry.is_file():
                    names.add(stem)
    return sorted(names)


def resolve_lexicon(name: str, key: str = "params.lexicon", alphabet: Any = None) -> Any:
    """The :class:`~kubasolve.lexicon.Lexicon` a request's ``lexicon`` names: a bundled one, or a list the
    engine's operator named, read with ``alphabet`` (the game's, e.g. the Romanian letters of Word colonies; None:
    a-z), as the CLI reads a word-list file for that game. Anything else, and a named list that does not load, is
    ``bad-lexicon`` (``key``: where the name was, default ``params.lexicon``) without a word of any file's contents."""
    from kubasolve.lexicon import Lexicon, load_lexicon
    from kubasolve.lexicon.alphabet import LATIN
    from kubasolve.lexicon.bundled import BUNDLED

    if name in BUNDLED:
        return load_lexicon(name)
    path = _named.get(name) or _dir_file(name)
    if path is None:
        bundled = ", ".join(sorted(BUNDLED))
        extra = ", ".join(n for n in served_names() if n not in BUNDLED)
        served = f"bundled: {bundled}" + (f"; named by the engine's operator: {extra}" if extra else "")
        raise LexiconError(f"no lexicon {name[:64]!r} on this engine ({served}); a request names a lexicon, never a "
                           "file (the operator adds lists with --lexicon NAME=PATH or --lexicon-dir DIR of kubasolve engine or analyse)",
                           key=key)
    memo = (name, str(path), getattr(alphabet, "letters", alphabet) or "")
    if memo in _loaded:
        return _loaded[memo]
    try:  # named by its served name (a saved state names it so, and resumes with it), not by its file's
        lexicon = _loaded[memo] = Lexicon.from_wordlist(path, LATIN if alphabet is None else alphabet, name=name)
        return lexicon
    except LexiconError as exc:
        log.error("lexicon %r (%s) does not load: %s", name, path, exc)
        raise LexiconError(f"lexicon {name!r} cannot be loaded (the engine's stderr says why)", key=key) from None
