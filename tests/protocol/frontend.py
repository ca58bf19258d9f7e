"""A frontend written from docs/engine.md alone: one client over the engine's stdin/stdout that plays every game the
engine lists. It holds no per-game code: no game name, action shape or rule appears below (issue 21's measure;
tests/protocol/test_frontend.py checks that and counts it)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any


class EngineProcess:
    """``kubasolve engine`` as a child process: one request at a time; ``info`` lines (progress) are kept aside."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "kubasolve", "engine", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        self.next_id = 0
        self.infos: list[dict[str, Any]] = []

    def send(self, cmd: str, **params: Any) -> int:
        """Write one request line; returns its id."""
        self.next_id += 1
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"id": self.next_id, "cmd": cmd, "params": params}) + "\n")
        self.proc.stdin.flush()
        return self.next_id

    def read(self) -> dict[str, Any]:
        """The next line the engine writes (an answer or an info line)."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise EOFError("the engine closed its output")
        message: dict[str, Any] = json.loads(line)
        return message

    def answer(self, request_id: int) -> dict[str, Any]:
        """Read until the answer of ``request_id`` (info lines before it are kept in :attr:`infos`)."""
        while True:
            message = self.read()
            if "info" in message:
                self.infos.append(message)
                continue
            assert message["id"] == request_id, message
            return message

    def ask(self, cmd: str, **params: Any) -> dict[str, Any]:
        """Send a request and return its result (an error answer raises)."""
        message = self.answer(self.send(cmd, **params))
        if not message["ok"]:
            raise RuntimeError(f"{cmd}: {message['error']}")
        result: dict[str, Any] = message["result"]
        return result

    def close(self) -> int:
        """Quit and wait for the process; its exit code."""
        if self.proc.poll() is None:
            self.ask("quit")
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=60)


def play(engine: EngineProcess, kind: str, seed: int, show: Callable[[str], None] = lambda text: None,
         movetime_ms: int = 100) -> dict[str, Any]:
    """Play one game of ``kind``: seat 0 picks one of the listed legal moves at random (a human would choose one),
    seat 1 is the engine's AI; ``show`` receives the drawn position after every move. Returns the last answer."""
    rng = random.Random(seed)
    game = engine.ask("new-game", game=kind, seed=seed, players=["you", "engine"])
    gid = game["game_id"]
    while not game["over"]:
        show(engine.ask("render", game_id=gid)["rendering"])
        if game["current"] == 0:
            moves = engine.ask("legal-moves", game_id=gid, top=8, movetime_ms=10 * movetime_ms)["moves"]
            game = engine.ask("apply-move", game_id=gid, action=rng.choice(moves)["action"])
        else:
            game = engine.ask("ai-move", game_id=gid, movetime_ms=movetime_ms)
    show(engine.ask("render", game_id=gid)["rendering"])
    engine.ask("close-game", game_id=gid)
    return game


def play_everything(engine: EngineProcess, seed: int = 1) -> dict[str, dict[str, Any]]:
    """Every game the engine lists, one each: {game kind: its final answer}."""
    return {info["game"]: play(engine, info["game"], seed) for info in engine.ask("games")["games"]}
