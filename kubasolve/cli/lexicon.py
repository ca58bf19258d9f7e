"""``kubasolve lexicon``: inspect, query and build lexicons, and rebuild the bundled Dutch game list.

Subcommands: ``info``, ``check``, ``build``, ``prefix``, ``suffix``, ``make-nl`` and ``measure``.
Human output by default, ``--json`` for machines. User mistakes raise
:class:`~kubasolve.errors.LexiconError`, which the dispatcher prints as one line (exit 1).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kubasolve.cli.common import check_output_path, count
from kubasolve.errors import LexiconError

if TYPE_CHECKING:  # pragma: no cover
    from kubasolve.lexicon import Alphabet, Lexicon

DEFAULT_LIMIT = 50


# --------------------------------------------------------------------------- parser
def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register ``kubasolve lexicon`` and its subcommands."""
    p = sub.add_parser("lexicon", help="inspect, query and build word lexicons")
    lsub = p.add_subparsers(dest="lexicon_command", metavar="SUBCOMMAND")
    lsub.required = True

    def common(q: argparse.ArgumentParser, lexicon_option: bool) -> None:
        if lexicon_option:
            q.add_argument("--lexicon", "-l", default="nl", metavar="NAME|PATH", help="bundled name or word-list file (default: nl)")
        q.add_argument("--alphabet", default=None, metavar="LETTERS", help="letters of the alphabet, in order (default: the list's own, a-z for files)")
        q.add_argument("--json", action="store_true", help="machine-readable output")

    q = lsub.add_parser("info", help="words, trie nodes, compiled size, cache folder and skip report of a lexicon")
    q.add_argument("lexicon", nargs="?", default="nl", metavar="NAME|PATH", help="bundled name or word-list file (default: nl)")
    common(q, lexicon_option=False)
    q.set_defaults(func=cmd_info)

    q = lsub.add_parser("check", help="is each WORD a word? (exit 0 if all are, 1 otherwise)")
    q.add_argument("words", nargs="+", metavar="WORD")
    common(q, lexicon_option=True)
    q.set_defaults(func=cmd_check)

    q = lsub.add_parser("build", help="compile a UTF-8 word list (one word a line) into the cache")
    q.add_argument("path", metavar="PATH", help="word list file (.txt, .xz or .gz) or a bundled name")
    q.add_argument("--name", default=None, metavar="N", help="name of the lexicon (default: the file name)")
    common(q, lexicon_option=False)
    q.set_defaults(func=cmd_build)

    for kind in ("prefix", "suffix"):
        q = lsub.add_parser(kind, help=f"words with a given {kind}, in alphabet order")
        q.add_argument("text", metavar=kind[0].upper(), help=f"the {kind}")
        q.add_argument("--limit", type=count(0), default=DEFAULT_LIMIT, help=f"show at most this many words (default {DEFAULT_LIMIT}; 0: all)")
        common(q, lexicon_option=True)
        q.set_defaults(func=cmd_prefix if kind == "prefix" else cmd_suffix)

    q = lsub.add_parser("make-nl", help="rebuild the bundled Dutch game list from the OpenTaal source (wdutch /usr/share/dict/dutch)")
    q.add_argument("source", metavar="SOURCE", help="the OpenTaal word list, e.g. usr/share/dict/dutch from the Debian package wdutch")
    q.add_argument("-o", "--output", default=None, metavar="OUT", help="output file (default: the bundled wordlists/nl/opentaal-2.20.19-game.txt.xz)")
    q.add_argument("--json", action="store_true", help="machine-readable output")
    q.set_defaults(func=cmd_make_nl)

    q = lsub.add_parser("measure", help="one-off measurements in fresh processes: cold build seconds, warm load ms, resident memory")
    q.add_argument("--json", action="store_true", help="machine-readable output")
    q.set_defaults(func=cmd_measure)


# --------------------------------------------------------------------------- loading
def _resolve(spec: str, alphabet: str | None) -> tuple[Path, Alphabet, str | None]:
    """Path, alphabet and lexicon name for a bundled name or a file path."""
    from kubasolve.lexicon import LATIN, word_alphabet
    from kubasolve.lexicon.bundled import BUNDLED, bundled_path

    if spec in BUNDLED:
        entry, path = bundled_path(spec)
        return path, word_alphabet(entry.alphabet if alphabet is None else alphabet), spec
    p = Path(spec)
    if not spec or not (p.exists() or "/" in spec or "." in spec):  # Path("") is the current folder
        bundled_path(spec)  # raises: no bundled lexicon of that name
    return p, word_alphabet(LATIN if alphabet is None else alphabet), None


def _is_cached(path: Path, alpha: Alphabet) -> bool:
    """True when ``Lexicon.from_wordlist(path, alpha)`` will find a current cache (mirrors its key)."""
    from kubasolve.lexicon import cache
    from kubasolve.lexicon.layout import FORMAT_VERSION

    try:
        key = cache.cache_key(path.read_bytes(), {"alphabet": alpha.letters, "lowercase": True, "suffix": path.suffix})
        meta = json.loads((cache.cache_dir_for(key) / "meta.json").read_text())
        return bool(meta.get("key") == key and meta.get("format") == FORMAT_VERSION)
    except (OSError, ValueError, AttributeError):
        return False


def _open(spec: str, alphabet: str | None, name: str | None = None) -> tuple[Lexicon, float]:
    """Load (or compile, with a progress note on stderr) a lexicon; returns it and the seconds taken."""
    from kubasolve.lexicon import Lexicon

    path, alpha, bundled_name = _resolve(spec, alphabet)
    label = name or bundled_name or path.name.split(".")[0]
    if path.is_file() and not _is_cached(path, alpha):
        from kubasolve.kernels import folder_problem
        from kubasolve.lexicon import cache

        folder = cache.lexicons_dir()
        problem = folder_problem(folder)
        kept = ("first use, cached afterwards" if problem is None
                else f"kept in memory for this run only: the cache folder {folder} is not usable ({problem})")
        sys.stderr.write(f"kubasolve: compiling lexicon {label!r} from {path} ({kept}) ...\n")
        sys.stderr.flush()
    t0 = time.perf_counter()
    lex = Lexicon.from_wordlist(path, alpha, name=label)
    return lex, time.perf_counter() - t0


# --------------------------------------------------------------------------- formatting
def _n(count: int, noun: str) -> str:
    """``1 line`` / ``3 lines`` (thousands separated)."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _mb(nbytes: int) -> float:
    return round(nbytes / 1e6, 2)


def skip_report_lines(report: dict[str, Any]) -> list[str]:
    """Human description of a word-list report: counts of skipped lines by reason, and examples."""
    if not report:
        return ["(no report)"]
    lines = [f"read {_n(int(report.get('lines', 0)), 'line')}, accepted {_n(int(report.get('accepted', 0)), 'word')}"]
    foreign = int(report.get("skipped_foreign", 0))
    too_long = int(report.get("skipped_too_long", 0))
    skipped = foreign + too_long
    if skipped:
        reasons = []
        if foreign:
            reasons.append(f"{foreign:,} with letters outside the alphabet")
        if too_long:
            reasons.append(f"{too_long:,} longer than 255 letters")
        lines.append(f"SKIPPED {_n(skipped, 'line')}: " + ", ".join(reasons))
        if report.get("examples"):
            lines.append("  e.g. " + ", ".join(repr(e) for e in report["examples"]))
    else:
        lines.append("skipped no line")
    extra = []
    if report.get("duplicates"):
        extra.append(f"{_n(int(report['duplicates']), 'duplicate line')} merged")
    if report.get("blank"):
        extra.append(f"{_n(int(report['blank']), 'blank line')} ignored")
    if extra:
        lines.append("; ".join(extra))
    return lines


def _info_dict(lex: Lexicon, seconds: float) -> dict[str, Any]:
    info = lex.info().as_dict()
    report = info.get("report") or {}
    info["compiled_mb"] = _mb(info["compiled_bytes"])
    info["alphabet_size"] = len(lex.alphabet)
    info["skipped"] = int(report.get("skipped_foreign", 0)) + int(report.get("skipped_too_long", 0))
    info["load_seconds"] = round(seconds, 4)
    return info


def _print_info(info: dict[str, Any]) -> None:
    rows = [
        ("lexicon", info["name"]),
        ("source", info["source"]),
        ("alphabet", f"{info['alphabet']} ({info['alphabet_size']} letters)"),
        ("words", f"{info['words']:,}"),
        ("trie nodes", f"{info['trie_nodes']:,}"),
        ("compiled", f"{info['compiled_mb']:.1f} MB"),
        ("cache dir", info["cache_dir"] or "(not cached)"),
        ("from cache", "yes" if info["from_cache"] else "no (compiled now)"),
        ("load time", f"{info['load_seconds'] * 1e3:.1f} ms"),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    for i, line in enumerate(skip_report_lines(info["report"])):
        print(f"{'word list' if i == 0 else '':<{width}}  {line}")


# --------------------------------------------------------------------------- handlers
def cmd_info(args: argparse.Namespace) -> int:
    """``lexicon info``."""
    from kubasolve.cli.output import emit_json

    lex, seconds = _open(args.lexicon, args.alphabet)
    info = _info_dict(lex, seconds)
    if args.json:
        emit_json({"ok": True, **info})
    else:
        _print_info(info)
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    """``lexicon build``: compile into the cache and show the skip report."""
    from kubasolve.cli.output import emit_json

    lex, seconds = _open(args.path, args.alphabet, name=args.name)
    info = _info_dict(lex, seconds)
    if args.json:
        emit_json({"ok": True, **info})
        return 0
    state = "already in the cache" if info["from_cache"] else f"compiled in {seconds:.2f} s"
    where = info["cache_dir"] or "memory only (cache folder not writable)"
    print(f"lexicon {info['name']!r}: {info['words']:,} words, {info['trie_nodes']:,} trie nodes, {info['compiled_mb']:.1f} MB compiled; {state}")
    print(f"cache: {where}")
    for line in skip_report_lines(info["report"]):
        print(line)
    return 0


def _classify(lex: Lexicon, raw: str) -> dict[str, Any]:
    word = lex.alphabet.normalize(raw)
    foreign = sorted({c for c in word if c not in lex.alphabet})
    return {"input": raw, "word": word, "is_word": bool(word) and word in lex, "foreign_letters": "".join(foreign)}


def cmd_check(args: argparse.Namespace) -> int:
    """``lexicon check``: exit 0 when every WORD is a word, 1 otherwise."""
    from kubasolve.cli.output import emit_json

    lex, _ = _open(args.lexicon, args.alphabet)
    results = [_classify(lex, w) for w in args.words]
    all_words = all(r["is_word"] for r in results)
    if args.json:
        emit_json({"ok": True, "lexicon": lex.name, "all_words": all_words, "results": results})
    else:
        for r in results:
            if r["is_word"]:
                verdict = "yes"
            elif r["foreign_letters"]:
                many = len(r["foreign_letters"]) > 1
                verdict = f"no ({'letters' if many else 'letter'} {r['foreign_letters']!r} {'are' if many else 'is'} not in the alphabet)"
            elif not r["word"]:
                verdict = "no (empty)"
            else:
                verdict = f"no (not in {lex.name})"
            print(f"{r['word'] or repr(r['input'])}: {verdict}")
    return 0 if all_words else 1


def _affix(args: argparse.Namespace, kind: str) -> int:
    from kubasolve.cli.output import emit_json

    lex, _ = _open(args.lexicon, args.alphabet)
    text = lex.alphabet.normalize(args.text)
    foreign = "".join(sorted({c for c in text if c not in lex.alphabet}))
    if foreign:  # no word can have it: say why, rather than "0 words"
        many = len(foreign) > 1
        raise LexiconError(f"{kind} {text!r}: {'letters' if many else 'letter'} {foreign!r} {'are' if many else 'is'} not in the "
                           f"alphabet of {lex.name} ({lex.alphabet.letters})")
    found = lex.words_with_prefix(text) if kind == "prefix" else lex.words_with_suffix(text)
    shown = found if args.limit == 0 else found[: args.limit]
    if args.json:
        emit_json({"ok": True, "lexicon": lex.name, kind: text, "total": len(found), "words": shown})
        return 0
    for w in shown:
        print(w)
    more = f", showing {len(shown)} (--limit)" if len(shown) < len(found) else ""
    verb = "starting" if kind == "prefix" else "ending"
    print(f"({len(found):,} words {verb} with {text!r} in {lex.name}{more})", file=sys.stderr)
    return 0


def cmd_prefix(args: argparse.Namespace) -> int:
    """``lexicon prefix``."""
    return _affix(args, "prefix")


def cmd_suffix(args: argparse.Namespace) -> int:
    """``lexicon suffix``."""
    return _affix(args, "suffix")


def cmd_make_nl(args: argparse.Namespace) -> int:
    """``lexicon make-nl``: OpenTaal source -> the bundled game list (see wordlists/nl/README.md)."""
    from kubasolve.cli.output import emit_json
    from kubasolve.lexicon.bundled import BUNDLED, wordlist_dir
    from kubasolve.lexicon.wordlist import opentaal_game_words, read_text, wordlist_lines, write_wordlist

    out = check_output_path(args.output, "the word list") if args.output else wordlist_dir() / BUNDLED["nl"].file
    lines = wordlist_lines(read_text(args.source))
    words = opentaal_game_words(lines)
    if not words:
        raise LexiconError(f"{args.source!r} holds no game word (is it the OpenTaal list?)")
    previous = out.read_bytes() if out.is_file() else None
    write_wordlist(words, out)
    data = out.read_bytes()
    result = {
        "ok": True,
        "source": str(args.source),
        "source_lines": len(lines),
        "words": len(words),
        "output": str(out),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "unchanged": previous == data if previous is not None else None,
    }
    if args.json:
        emit_json(result)
        return 0
    print(f"{result['source_lines']:,} lines in {args.source} -> {result['words']:,} game words")
    print(f"wrote {out} ({result['bytes']:,} bytes, sha256 {result['sha256']})")
    if previous is not None:
        print("identical to the previous file" if result["unchanged"] else "CHANGED: differs from the previous file")
    return 0


def cmd_measure(args: argparse.Namespace) -> int:
    """``lexicon measure``: cold build, warm load and memory of "nl", each in a fresh process."""
    from kubasolve.bench.lexicon_scenarios import TARGETS, measure_cold_and_memory
    from kubasolve.cli.output import emit_json

    sys.stderr.write("kubasolve: measuring in fresh processes with an empty cache (10-20 s) ...\n")
    m = measure_cold_and_memory()
    if args.json:
        emit_json({"ok": True, "targets": TARGETS, **m})
        return 0
    rows = [
        ("cold build, numba cache empty", f"{m['cold_build_s_numba_cold']:.2f} s", f"<= {TARGETS['cold_build_s']:g} s"),
        ("cold build, numba cache warm", f"{m['cold_build_s_numba_warm']:.2f} s", f"<= {TARGETS['cold_build_s']:g} s"),
        ("warm load, fresh process", f"{m['warm_load_ms']:.1f} ms", f"<= {TARGETS['warm_load_ms']:g} ms"),
        ("RSS of the loaded lexicon", f"{m['lexicon_rss_mb']:.1f} MB", f"<= {TARGETS['rss_mb']:g} MB"),
        ("  ... after touching all pages", f"{m['lexicon_rss_mb_touched']:.1f} MB", f"<= {TARGETS['rss_mb']:g} MB"),
        ("process RSS after load+touch", f"{m['process_rss_mb_touched']:.1f} MB", ""),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>10}  {target}")
    return 0
