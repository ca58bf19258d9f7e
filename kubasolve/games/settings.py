"""Loading rule settings, shared by every game's frozen rules dataclass: unknown keys refused by name,
TOML from a file path or text, settings at top level or under the game's own table."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, TypeVar

from kubasolve.errors import RulesError

T = TypeVar("T")


def checked_settings(cls: type, data: object, *, what: str = "rule", container: str = "rules must be a table/object of settings") -> dict[str, Any]:
    """``data`` as a dict of ``cls``'s fields; a non-mapping or an unknown key is a :class:`RulesError`."""
    if not isinstance(data, Mapping):
        raise RulesError(container)
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise RulesError(f"unknown {what} setting(s): {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    return dict(data)


def with_changes(settings: T, changes: Mapping[str, Any]) -> T:
    """A copy of the frozen dataclass ``settings`` with ``changes`` (unknown names refused; the class validates)."""
    unknown = set(changes) - {f.name for f in fields(settings)}  # type: ignore[arg-type]
    if unknown:
        raise RulesError(f"unknown rule setting(s): {', '.join(sorted(unknown))}")
    return replace(settings, **changes)  # type: ignore[type-var]


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for the system, or holding a NUL: TOML text, not a path
        return False


def read_toml_table(source: str | Path, table: str) -> Any:
    """Parsed TOML from a file path (a ``Path``, a ``.toml`` name or an existing file) or from TOML text; the
    ``[table]`` part if present."""
    text = source
    if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and (source.endswith(".toml") or _is_file(source))):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:  # missing, unreadable, or not UTF-8 (TOML is UTF-8)
            raise RulesError(f"cannot read rules file {str(source)!r}: {exc}") from None
    try:
        data = tomllib.loads(str(text))
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"invalid TOML in rules: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise RulesError("invalid TOML in rules: arrays or tables nested too deeply") from None
    return data.get(table, data)
