"""``simulate --backend ray`` gives the same records and summary as ``--backend local`` for every game
with a ``simulate`` command (issue 13); only timings may differ."""

from __future__ import annotations

import json

import pytest

from kubasolve.cli.main import main

TIMINGS = {"wall_s", "mean_turn_ms", "turn_seconds", "turn_counts"}
GAMES = ["kubagram", "rummikub", "crossword", "colonii", "scruble"]


def _simulate(capsys: pytest.CaptureFixture[str], game: str, *extra: str) -> list[dict]:
    assert main([game, "simulate", "--games", "2", "--seed", "5", "--records", "-", "--no-progress", *extra]) == 0
    out = capsys.readouterr()
    records = [{k: v for k, v in json.loads(line).items() if k not in TIMINGS} for line in out.out.splitlines()]
    return records


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_ray_backend_plays_the_local_games(game: str, capsys: pytest.CaptureFixture[str], ray_cluster) -> None:
    local = _simulate(capsys, game)
    remote = _simulate(capsys, game, "--backend", "ray", "--workers", "2")
    assert len(local) == 2 and remote == local


@pytest.mark.parametrize("game", GAMES)
def test_address_needs_the_ray_backend(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([game, "simulate", "--games", "1", "--address", "auto"]) == 2
    assert "--address goes with --backend ray" in capsys.readouterr().err
