"""Conventions shared by every ``kubasolve`` command (see ``docs/cli.md``, "Writing a game's commands").

- **Flags**: :func:`add_simulate_arguments` adds the one set of ``simulate`` flags (``--games --players
  --seed --workers --records --no-progress --rules --lexicon --json``); :func:`add_rules_argument`,
  :func:`add_lexicon_argument` and :func:`add_json_argument` add the single flags to other commands.
  Numbers go through strict argparse types (:func:`count`, :func:`seed`, :func:`seconds`) that refuse
  signs, full-width digits and out-of-range values as usage errors.
- **Streams**: stdout carries data only. :func:`open_output` opens ``-o``/``--records`` targets
  (``-`` = stdout; a missing folder is refused, never created); :func:`summary_stream` is where the
  human summary goes (stderr when stdout carries records); :func:`emit_summary` writes it.
- **Progress**: :func:`progress` is the one progress display (tqdm on stderr), off when stderr is
  not a terminal or with ``--no-progress``. Library code takes a ``(done, total)`` callback and never
  prints.
- **Exit codes**: 0 success, 1 a domain error (:class:`~kubasolve.errors.KubasolveError`: bad
  position, unknown lexicon, illegal move, unwritable file), 2 usage (argparse errors and
  :class:`UsageError`). :func:`exit_code` is the mapping ``kubasolve.cli.main`` applies.

This module imports nothing heavy (no numpy, numba or tqdm until a bar is drawn).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import re
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from kubasolve.errors import KubasolveError, error_payload

__all__ = [
    "EXIT_DOMAIN",
    "EXIT_OK",
    "EXIT_USAGE",
    "ProgressCallback",
    "UsageError",
    "add_budget_arguments",
    "add_json_argument",
    "add_lexicon_argument",
    "add_rules_argument",
    "add_simulate_arguments",
    "backend_options",
    "budget_of",
    "ascii_text",
    "check_output_path",
    "count",
    "emit_summary",
    "error_payload",
    "exit_code",
    "open_output",
    "player_list",
    "progress",
    "progress_enabled",
    "read_state_file",
    "read_text_file",
    "seconds",
    "seed",
    "summary_stream",
    "toml_file",
    "undecodable_argument",
    "watch_compilation",
    "whole_number",
]

EXIT_OK = 0
"""The command did what was asked."""
EXIT_DOMAIN = 1
"""A domain error: the input was well-formed but wrong (bad position, unknown lexicon, illegal move...)."""
EXIT_USAGE = 2
"""A usage error: unknown flag, malformed number, flags that do not go together (argparse's own code)."""

ProgressCallback = Callable[[int, int], None]
"""``callback(done, total)``: what library code calls after each unit of work (a game, a scenario)."""


class UsageError(KubasolveError):
    """Flags that do not go together, or a value argparse could not check: exit code 2, like argparse."""

    code = "bad-request"


def exit_code(exc: BaseException) -> int:
    """The exit code for a user-caused error that reached the CLI's top level (a KubasolveError or OSError)."""
    return EXIT_USAGE if isinstance(exc, UsageError) else EXIT_DOMAIN




# ------------------------------------------------------------------------------------------------ argument types
def _whole_number(text: str, what: str) -> int:
    """A whole number written with ASCII digits only (no sign, no spaces, no full-width or other digits)."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"expected {what} written with the digits 0-9, got {text!r}")
    if len(text) > 30:
        raise argparse.ArgumentTypeError(f"{text[:12]}... is far too large")
    return int(text)


def whole_number(text: str, what: str, minimum: int, maximum: int) -> int:
    """``text`` as a whole number in ``[minimum, maximum]`` written with the digits 0-9 (``１`` is refused, not read
    as 1), for numbers inside a value (``cal:1:5``); else a :class:`~kubasolve.errors.PositionError` naming ``what``."""
    from kubasolve.errors import PositionError

    try:
        value = _whole_number(text.strip(), what)
    except argparse.ArgumentTypeError as exc:
        raise PositionError(str(exc)) from None
    if not minimum <= value <= maximum:
        raise PositionError(f"{what} must be from {minimum} to {maximum:,}, got {value}")
    return value


def count(minimum: int = 0, maximum: int | None = None) -> Callable[[str], int]:
    """Argparse type: a whole number in ``[minimum, maximum]`` (``--games``, ``--top``, ``--mover``...)."""
    what = f"a whole number >= {minimum}" if maximum is None else f"a whole number from {minimum} to {maximum}"

    def parse(text: str) -> int:
        value = _whole_number(text, what)
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text}")
        return value

    parse.__name__ = "count"  # argparse names the type in some messages
    return parse


def seed(text: str) -> int:
    """Argparse type: a random seed, a whole number from 0 to 2**63 - 1 (:data:`~kubasolve.games.limits.MAX_SEED`, the
    library's and the engine's bound too)."""
    from kubasolve.games.limits import MAX_SEED

    return count(0, MAX_SEED)(text)


def seconds(minimum: float = 0.0, maximum: float | None = None) -> Callable[[str], float]:
    """Argparse type: a finite number of seconds (ASCII, e.g. ``0.5``) in ``[minimum, maximum]``."""
    what = f"a number of seconds >= {minimum:g}" if maximum is None else f"a number of seconds from {minimum:g} to {maximum:g}"

    def parse(text: str) -> float:
        try:
            if not text.isascii():
                raise ValueError
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not math.isfinite(value) or value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text}")
        return value

    parse.__name__ = "seconds"
    return parse


def player_list(text: str) -> list[str]:
    """Argparse type: comma-separated seat names (``greedy,planner:2``), at least one; the game checks
    the names themselves (an unknown AI is a domain error naming the choices)."""
    names = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in names):
        raise argparse.ArgumentTypeError(f"expected comma-separated names like greedy,planner, got {text!r}")
    if len(names) > 64:
        raise argparse.ArgumentTypeError(f"at most 64 players, got {len(names)}")
    return names


def undecodable_argument(argv: Sequence[str]) -> str | None:
    """A usage-error message for the first command-line argument that is not valid text (bytes the locale could not
    decode reach Python as lone surrogates, which no lexicon or file name can hold), or None."""
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            shown = arg.encode("utf-8", "backslashreplace").decode("ascii", "replace")
            return f"argument {i + 1} ({shown[:60]}) is not valid text: bytes that are not UTF-8 at position {exc.start}"
    return None


def ascii_text(value: str, what: str) -> str:
    """``value`` unless it holds a digit outside 0-9 (``r４`` would otherwise be read as ``r4``): then a
    :class:`~kubasolve.errors.PositionError` naming it."""
    from kubasolve.errors import PositionError

    for ch in value:
        if ch.isdigit() and not ch.isascii():
            raise PositionError(f"{what}: {ch!r} is not one of the digits 0-9 (in {value!r})")
    return value


def toml_file(text: str) -> Path:
    """Argparse type: an existing, readable UTF-8 TOML file (checked up front: no traceback later)."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}" if not path.exists() else f"{text} is not a file")
    try:
        tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise argparse.ArgumentTypeError(f"{text} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {text}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise argparse.ArgumentTypeError(f"{text} is not valid TOML: {exc}") from None
    except RecursionError:
        raise argparse.ArgumentTypeError(f"{text}: arrays or tables nested too deeply for a rules file") from None
    return path


# ------------------------------------------------------------------------------------------------ shared flags
def add_rules_argument(parser: argparse.ArgumentParser, doc: str) -> None:
    """``--rules TOML``: a rule settings file (``doc``: where its settings are described)."""
    parser.add_argument("--rules", type=toml_file, default=None, metavar="TOML", help=f"rule settings file (see {doc})")


def add_lexicon_argument(parser: argparse.ArgumentParser, default: str) -> None:
    """``--lexicon``/``-l NAME|PATH``: a bundled lexicon (``nl``, ``ro``...) or a word-list file (``default`` ``""``: the
    game's own, left to the game: ``args.lexicon`` is None); ``-l`` as in the ``lexicon`` commands."""
    parser.add_argument("--lexicon", "-l", default=default or None, metavar="NAME|PATH",
                        help=f"bundled lexicon or word-list file (default {default or 'the game s'})".replace("game s", "game's"))


def add_json_argument(parser: argparse.ArgumentParser, what: str = "machine-readable output (one JSON document)") -> None:
    """``--json``: one JSON document on stdout (errors too: ``{"ok": false, "error": {...}}``)."""
    parser.add_argument("--json", action="store_true", help=what)


def add_simulate_arguments(
    parser: argparse.ArgumentParser,
    *,
    players: str | None,
    players_help: str,
    rules_doc: str,
    lexicon: str | None,
    games: int = 100,
    max_games: int = 1_000_000,
    max_workers: int = 256,
) -> None:
    """The one set of ``simulate`` flags every game shares (``--backend``/``--address`` choose where it runs; the
    AIs' budget: :func:`add_budget_arguments`).

    ``players``: default seats (``"greedy,planner"``; None: the game's AIs); ``players_help``: the AI names;
    ``rules_doc``: the doc describing ``--rules``; ``lexicon``: default lexicon (``""``: the game's), or None for a
    game without words (then there is no ``--lexicon``). ``--records -`` sends JSON lines to stdout and the summary
    to stderr.
    """
    parser.add_argument("--games", type=count(1, max_games), default=games, help=f"number of games (default {games})")
    parser.add_argument("--players", type=player_list, default=player_list(players) if players else None,
                        help=f"comma-separated AIs, one per seat: {players_help} (default {players or 'the game AIs'})")
    parser.add_argument("--seed", type=seed, default=0, help="master seed; the same seed gives the same games (default 0)")
    parser.add_argument("--workers", type=count(1, max_workers), default=1, help="parallel worker processes (default 1)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where the games run: local processes or a Ray cluster (pip install 'kubasolve[ray]'); same results")
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join (auto, HOST:PORT, ray://HOST:PORT); default: a local Ray instance")
    parser.add_argument("--records", metavar="PATH", default=None,
                        help="write one JSON line per game to PATH ('-': stdout, then the summary goes to stderr)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (it is off anyway when stderr is not a terminal)")
    parser.add_argument("--paired", action="store_true",
                        help="play every deal once per seat rotation (two AIs: each deal both ways, so the luck of the draw "
                             "cancels); --games a multiple of the seat count")
    add_budget_arguments(parser, "each AI move")
    add_rules_argument(parser, rules_doc)
    if lexicon is not None:
        add_lexicon_argument(parser, lexicon)
    add_json_argument(parser, "summary as one JSON document")


MAX_MOVETIME_MS = 86_400_000
"""Largest ``--movetime-ms`` (a day)."""
MAX_NODES = 10**12
"""Largest ``--max-nodes``."""


def add_budget_arguments(parser: argparse.ArgumentParser, what: str, default: str = "none: exact") -> None:
    """``--movetime-ms MS`` and ``--max-nodes N``: the one budget of every search (``what`` it bounds), the same
    names as the library's :class:`~kubasolve.budget.Budget` and the engine's parameters. :func:`budget_of` reads
    them back."""
    parser.add_argument("--movetime-ms", type=count(1, MAX_MOVETIME_MS), default=None, metavar="MS",
                        help=f"time budget of {what} in milliseconds (default {default}); then the best found so far")
    parser.add_argument("--max-nodes", type=count(1, MAX_NODES), default=None, metavar="N",
                        help=f"node budget of {what} (deterministic; default {default})")


def budget_of(args: argparse.Namespace) -> Any:
    """The :class:`~kubasolve.budget.Budget` of ``--movetime-ms``/``--max-nodes``."""
    from kubasolve.budget import Budget

    return Budget(getattr(args, "movetime_ms", None), getattr(args, "max_nodes", None))

def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """``backend``/``address`` keyword arguments for a game's ``simulate`` from the shared flags;
    ``--address`` without ``--backend ray`` is a usage error."""
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address goes with --backend ray")
    return {"backend": args.backend, "address": args.address}


def read_text_file(path: str, what: str) -> str:
    """The UTF-8 text of ``path`` (a ``what``; a GCG game may be in ISO-8859-1), or a :class:`~kubasolve.errors.StateError` saying why it cannot be
    read."""
    from kubasolve.errors import StateError
    from kubasolve.files import read_user_text

    def decode(data: bytes) -> str:
        if re.search(rb"^#(player1|character-encoding)\s", data, re.MULTILINE):
            # a GCG game: read as --board reads it (the encoding it names, else UTF-8, else ISO-8859-1)
            from kubasolve.games.crossword.notation import decode_gcg

            return decode_gcg(data)
        return data.decode("utf-8")

    return read_user_text(path, what, StateError, decode)


def read_state_file(path: str, what: str) -> Any:
    """The JSON document in ``path`` (a saved ``what`` game), or a :class:`~kubasolve.errors.StateError`
    saying why it cannot be read."""
    from kubasolve.errors import StateError

    text = read_text_file(path, f"saved {what} game")
    try:
        data = json.loads(text)
    except RecursionError:  # json decodes nested arrays and objects recursively
        raise StateError(f"{path} is not a saved {what} game: JSON nested too deeply") from None
    except ValueError as exc:
        raise StateError(f"{path} is not a saved {what} game: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise StateError(f"{path} is not a saved {what} game: a JSON object is expected")
    return data


# ------------------------------------------------------------------------------------------------ streams
def check_output_path(path: str | Path, what: str = "output") -> Path:
    """``path`` as a Path if a file can be written there: its folder exists (it is never created) and
    it is not itself a folder; else a :class:`~kubasolve.errors.KubasolveError` naming ``what``."""
    target = Path(path)
    if target.is_dir():
        raise KubasolveError(f"cannot write {what} to {path}: it is a folder; give a file name")
    if not target.absolute().parent.is_dir():
        raise KubasolveError(f"cannot write {what} to {path}: the folder {target.absolute().parent} does not exist")
    return target


@contextmanager
def open_output(path: str | None, what: str = "output") -> Iterator[IO[str] | None]:
    """Open an output target for writing: None -> None, ``-`` -> stdout (left open), else the file.

    A missing parent folder is refused (never created), as is a folder or an unwritable file; the
    message names ``what`` (``records``, ``output``). The file is closed on exit, even on errors.
    """
    if path is None:
        yield None
        return
    if path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    target = check_output_path(path, what)
    try:
        handle = open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise KubasolveError(f"cannot write {what} to {path}: {exc.strerror or exc}") from None
    try:
        yield handle
    finally:
        handle.close()


def summary_stream(args: argparse.Namespace) -> IO[str]:
    """Where the summary goes: stderr when stdout carries the records (``--records -``), else stdout."""
    return sys.stderr if getattr(args, "records", None) == "-" or getattr(args, "output", None) == "-" else sys.stdout


def emit_summary(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    """Write the summary: ``payload`` as one JSON document with ``--json`` (``"ok": true`` added), else
    ``text``; on :func:`summary_stream`."""
    out = summary_stream(args)
    if getattr(args, "json", False):
        out.write(json.dumps({"ok": True, **payload}, ensure_ascii=False, indent=None if out is sys.stderr else 2) + "\n")
    else:
        out.write(text.rstrip("\n") + "\n")
    out.flush()


# ------------------------------------------------------------------------------------------------ progress
def progress_enabled(args: argparse.Namespace | None = None, stream: IO[str] | None = None) -> bool:
    """True unless ``--no-progress`` was given or stderr (``stream``) is not a terminal."""
    if args is not None and getattr(args, "no_progress", False):
        return False
    stream = stream or sys.stderr
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def progress(args: argparse.Namespace | None, total: int, unit: str = "game", desc: str | None = None,
             enabled: bool | None = None) -> Iterator[ProgressCallback]:
    """The one progress display: yields a ``callback(done, total)`` to hand to library code.

    A tqdm bar on stderr when :func:`progress_enabled` (or ``enabled``) says so, else a no-op; the bar
    is removed when the block ends.
    """
    if enabled is None:
        enabled = progress_enabled(args)
    if not enabled:
        yield _no_progress
        return
    from tqdm import tqdm

    bar = tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True)

    def update(done: int, new_total: int) -> None:
        if new_total != bar.total:
            bar.total = new_total
        bar.update(done - bar.n)

    try:
        yield update
    finally:
        bar.close()


def _no_progress(done: int, total: int) -> None:
    """Progress callback that shows nothing."""


def describe_choices(values: Sequence[str]) -> str:
    """``a, b or c`` for help texts and messages."""
    values = list(values)
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]


# ------------------------------------------------------------------------------------------------ first run
class CompileNotice:
    """Says on stderr when numba compiles kernels (the first run, a cold cache): once, when the first
    compilation starts, and at the end (:meth:`finish`) how many functions it compiled and how long
    the compiling itself took (nested compilations counted once; time between them, such as a game
    waiting for its player, not at all). No estimate up front: what a command compiles depends on its
    input, so any figure would be a guess.

    Installed by :func:`watch_compilation` without importing numba: a one-shot import hook registers
    the listener when numba is first imported by whatever needs it, so commands that use no kernel
    pay nothing.
    """

    def __init__(self, stream: IO[str] | None = None, clock: Callable[[], float] | None = None) -> None:
        import time

        self.stream = stream or sys.stderr
        self.clock = clock or time.perf_counter
        self.compilations = 0
        self.compile_s = 0.0
        self._depth = 0
        self._outer_start = 0.0
        self._listener: Any = None
        self._hook: _NumbaImportHook | None = None

    def on_compile(self) -> None:
        """A kernel compilation starts (numba found no cached machine code for it)."""
        self.compilations += 1
        self._depth += 1
        if self._depth == 1:
            self._outer_start = self.clock()
        if self.compilations == 1:
            from kubasolve.kernels import numba_cache_dir

            if _kernels_in_memory_only():  # the folder was found unusable (its warning is above): no "cached in" it
                self._say(f"compiling kernels, kept in memory for this run only ({numba_cache_dir()} is not usable)")
            else:
                self._say(f"compiling kernels, once (cached in {numba_cache_dir()})")

    def on_compiled(self) -> None:
        """A kernel compilation ended (successfully or not)."""
        self._depth = max(0, self._depth - 1)
        if self._depth == 0:
            self.compile_s += self.clock() - self._outer_start

    def finish(self) -> None:
        """Report the compile time if anything was compiled, and stop listening."""
        if self.compilations:
            kept = "kept in memory only (see the warning above)" if _kernels_in_memory_only() else "cached; later runs load them"
            self._say(f"kernels compiled in {self.compile_s:.1f} s ({self.compilations} compilation"
                      f"{'s' if self.compilations != 1 else ''}), {kept}")
            self.compilations = 0
            self.compile_s = 0.0
        if self._hook is not None and self._hook in sys.meta_path:
            sys.meta_path.remove(self._hook)
        if self._listener is not None:
            from numba.core import event

            event.unregister("numba:compile", self._listener)
            self._listener = None

    def _say(self, text: str) -> None:
        try:
            self.stream.write(f"kubasolve: {text}\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def register(self) -> None:
        """Listen to numba's compile events (numba must be imported)."""
        from numba.core import event

        notice = self

        class _Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                notice.on_compile()

            def on_end(self, ev: Any) -> None:
                notice.on_compiled()

        self._listener = _Listener()
        event.register("numba:compile", self._listener)


class _NumbaImportHook:
    """A ``sys.meta_path`` finder that registers a :class:`CompileNotice` right after numba is imported."""

    def __init__(self, notice: CompileNotice) -> None:
        self.notice = notice

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "numba":
            return None
        import importlib.util

        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec("numba")
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        exec_module = loader.exec_module
        notice = self.notice

        def exec_then_register(module: Any) -> None:
            exec_module(module)
            with contextlib.suppress(Exception):  # the notice is a courtesy: never break the command for it
                notice.register()

        loader.exec_module = exec_then_register  # type: ignore[method-assign]
        return spec


def _kernels_in_memory_only() -> bool:
    """True when this process could not write its compiled kernels to the cache (see ``kernels.disk_cache``)."""
    disk_cache = sys.modules.get("kubasolve.kernels.disk_cache")
    return disk_cache is not None and disk_cache.in_memory_only()


def watch_compilation(stream: IO[str] | None = None) -> CompileNotice:
    """Arrange for a first-run notice on stderr whenever kernels get compiled during this command."""
    notice = CompileNotice(stream)
    if "numba" in sys.modules:
        notice.register()
    else:
        notice._hook = _NumbaImportHook(notice)
        sys.meta_path.insert(0, notice._hook)
    return notice
