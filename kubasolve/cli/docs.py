"""``kubasolve docs [TOPIC]``: the documentation shipped with the package, readable without the source.

The wheel carries ``docs/`` as ``kubasolve/_docs``; a source checkout reads ``docs/`` directly. Without
a topic the command lists the topics with their titles; ``kubasolve docs cli`` prints ``cli.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kubasolve.cli.common import add_json_argument
from kubasolve.errors import KubasolveError


def docs_dir() -> Path:
    """Folder of the shipped Markdown documents."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_docs", here.parent / "docs"):
        if candidate.is_dir() and any(candidate.glob("*.md")):
            return candidate
    raise KubasolveError("the documentation is missing from this installation (reinstall kubasolve)")


def topics() -> dict[str, Path]:
    """``{topic: file}`` for every shipped document, in name order."""
    return {p.stem: p for p in sorted(docs_dir().glob("*.md"))}


def title(path: Path) -> str:
    """The first heading of a Markdown file (or its name)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return path.stem


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("docs", help="read the documentation shipped with kubasolve (e.g. `kubasolve docs cli`)",
                       description="Print a document, or list the topics when none is given.")
    p.add_argument("topic", nargs="?", default=None, metavar="TOPIC", help="a topic name such as cli, engine, kubagram")
    p.add_argument("--path", action="store_true", help="print the file's path instead of its text (no TOPIC: the folder's)")
    add_json_argument(p, "one JSON document: the topics, or with TOPIC its title, path and text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json, format_table

    found = topics()
    if args.topic is None:
        if args.path and not args.json:  # the folder the topics are in (it was ignored: the table came out)
            print(docs_dir())
            return 0
        if args.json:
            emit_json({"ok": True, "folder": str(docs_dir()),
                       "topics": [{"topic": t, "title": title(p), "path": str(p)} for t, p in found.items()]})
            return 0
        print(format_table(["topic", "title"], [[t, title(p)] for t, p in found.items()]))
        print(f"\nread one with: kubasolve docs TOPIC   (files in {docs_dir()})")
        return 0
    name = args.topic.removesuffix(".md")
    path = found.get(name)
    if path is None:
        close = [t for t in found if name.lower() in t.lower()]
        hint = f"; did you mean {', '.join(close)}?" if close else f"; topics: {', '.join(found)}"
        raise KubasolveError(f"no documentation topic {args.topic!r}{hint}")
    if args.json:
        document = {"ok": True, "topic": name, "title": title(path), "path": str(path)}
        emit_json(document if args.path else {**document, "text": path.read_text(encoding="utf-8")})
        return 0
    if args.path:
        print(path)
        return 0
    sys.stdout.write(path.read_text(encoding="utf-8"))
    return 0
