"""The engine's batch analysis (``kubasolve analyse``): a line is a saved state of any game (answered by the library,
:mod:`kubasolve.scale.analyse`) or the ``params`` of the game's analysis command (``kubagram.best-move``,
``rummikub.solve`` ...: a position written exactly as a frontend sends it, checked by the same declared schema and
answered by that command). Each game's command module declares its analysis command with :func:`declare_analysis`;
a game without one (a sixth game) is analysed from its saved states."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from kubasolve.scale.analyse import analyse_lines as analyse_with
from kubasolve.scale.analyse import answer_state_line, failed, forget_games, is_state_line, parse_line

__all__ = ["ANALYSIS_COMMANDS", "analyse_lines", "answer_line", "declare_analysis", "init_worker"]

ANALYSIS_COMMANDS: dict[str, str] = {}
"""Game kind -> the engine command that analyses one of its positions (declared by the command modules)."""

_SESSION: Any = None


def declare_analysis(game: str, command: str) -> None:
    """Declare ``command`` as the analysis of a position of ``game`` (a command module does, at import)."""
    ANALYSIS_COMMANDS[game] = command


def init_worker(lexicons: Mapping[str, str] | None = None, lexicon_dirs: Sequence[str] = ()) -> None:
    """Register the engine's commands once per worker and keep one session (loaded lexicons stay warm). Given
    ``lexicons`` (name -> word-list file) or ``lexicon_dirs``, serve them besides the bundled lexicons, as
    ``kubasolve engine --lexicon NAME=PATH --lexicon-dir DIR`` does (:func:`kubasolve.engine.lexicons.configure`)."""
    global _SESSION
    from kubasolve.engine.registry import Session
    from kubasolve.engine.server import load_handlers

    if lexicons is not None or lexicon_dirs:
        from kubasolve.engine.lexicons import configure

        configure(lexicons, lexicon_dirs)
        forget_games()  # a game built for a name served before may not hold the list it names now
    load_handlers()
    _SESSION = Session()


def answer_line(game: str, number: int, text: str | bytes) -> dict[str, Any]:
    """Worker: answer line ``number``: a saved state through the library, else the params of the game's analysis
    command through that command."""
    from kubasolve.engine.server import handle_request
    from kubasolve.errors import KubasolveError

    if _SESSION is None:
        init_worker()
    try:
        data = parse_line(number, text)
    except KubasolveError as exc:
        return failed(number, exc.code, str(exc))
    command = ANALYSIS_COMMANDS.get(game)
    if command is None or is_state_line(data):
        return answer_state_line(game, number, text, make_game=_served_game)
    # the line is one whole JSON value, so it can stand in the envelope as it is (no second encoding)
    raw = text.decode("utf-8") if isinstance(text, bytes) else text
    answer = handle_request('{"cmd": ' + json.dumps(command) + ', "params": ' + raw + "}", _SESSION)
    answer.pop("id", None)
    return {"line": number, **answer}


def _served_game(game: str, saved: Any) -> Any:
    """The game of a saved state's rules and lexicon, as the engine's ``new-game`` takes a saved state: the rules a
    JSON object (never a rules file's path), the lexicon a name the engine serves (bundled, or named by its operator:
    ``kubasolve analyse --lexicon NAME=PATH``), never a file the line names."""
    from kubasolve.engine.commands_session import saved_game

    return saved_game(game, saved, root="state")


def analyse_lines(lines: Iterable[str | bytes], game: str, *, lexicons: Mapping[str, str] | None = None,
                  lexicon_dirs: Sequence[str] = (), **options: Any) -> Iterator[dict[str, Any]]:
    """:func:`kubasolve.scale.analyse.analyse_lines` with the engine's answers (saved states and command params) and
    its lexicon policy: a line names a lexicon the engine serves (bundled, or ``lexicons``/``lexicon_dirs``: the
    operator's lists), never a file."""
    init = functools.partial(init_worker, dict(lexicons or {}), tuple(lexicon_dirs))
    init()  # the command modules declare their analysis commands when they are loaded; a bad list is refused here
    return analyse_with(lines, game, answer=answer_line, init=init, **options)
