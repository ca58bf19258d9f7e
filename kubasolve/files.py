"""Reading a file a user named: the same plain-words refusals everywhere (no such file, a folder, not UTF-8 text,
unreadable), raised as the caller's error class so each command answers with its own error code."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kubasolve.errors import KubasolveError

__all__ = ["read_user_text"]


def read_user_text(path: str | Path, what: str, error: type[KubasolveError],
                   decode: Callable[[bytes], str] | None = None) -> str:
    """The text of ``path`` (a ``what``, e.g. ``"records file"``), UTF-8 unless ``decode`` reads the bytes otherwise;
    ``error`` naming the file and why it cannot be read."""
    try:
        data = Path(path).read_bytes()
        return decode(data) if decode is not None else data.decode("utf-8")
    except FileNotFoundError:
        raise error(f"no such file: {path}") from None
    except IsADirectoryError:
        raise error(f"{path} is a folder, not a {what}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
