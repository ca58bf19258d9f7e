"""``kubasolve scruble`` commands: data on stdout, exit codes, JSON shape, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kubasolve", "scruble", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def state() -> str:
    out = run("scramble", "--seed", "5")
    assert out.returncode == 0
    last = out.stdout.strip().splitlines()[-1]
    assert len(last) == 96
    return last


def test_best_json_lists_moves_best_first(state):
    out = run("best", state, "--depth", "1", "--top", "3", "--json")
    assert out.returncode == 0, out.stderr
    moves = json.loads(out.stdout)["moves"]
    assert 1 <= len(moves) <= 3
    assert [m["score"] for m in moves] == sorted((m["score"] for m in moves), reverse=True)
    assert {"word", "twists", "cells", "score", "breakdown"} <= set(moves[0])


def test_bad_state_and_bad_flags_exit_codes(state, tmp_path):
    bad = run("best", "XYZ", "--depth", "1")
    assert bad.returncode == 1 and "96 symbols" in bad.stderr and "Traceback" not in bad.stderr
    assert run("best", state, "--depth", "9").returncode == 2
    svg = tmp_path / "c.svg"
    ok = run("show", state, "--twists", "R U'", "--svg", str(svg))
    assert ok.returncode == 0 and svg.read_text().startswith("<svg")
    assert run("show", state, "--twists", "Q").returncode == 1


def test_best_at_depth_zero_says_why_no_word_can_score(state, tmp_path):
    """With the default rules a word needs a new letter and only a twist places one: depth 0 is refused with the
    reason (exit 1, docs/cli.md), not answered with an empty list; without the rule it lists the words in place."""
    out = run("best", state, "--depth", "0")
    assert out.returncode == 1 and "depth 0 finds no word" in out.stderr and out.stdout == ""
    js = run("best", state, "--depth", "0", "--json")
    assert js.returncode == 1 and json.loads(js.stdout)["error"]["key"] == "--depth"
    rules = tmp_path / "r.toml"
    rules.write_text("require_new_letter = false\n")
    free = run("best", state, "--depth", "0", "--rules", str(rules), "--json")
    assert free.returncode == 0 and all(m["twists"] == [] for m in json.loads(free.stdout)["moves"])


def test_play_refuses_an_illegal_turn_then_quits(state):
    p = subprocess.run([sys.executable, "-m", "kubasolve", "scruble", "play", "--players", "human,greedy", "--seed", "2"],
                       input="R = qqqzx\nq\n", capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "not allowed: 'qqqzx' is not a word" in p.stdout


def test_top_0_is_all_as_in_the_other_games(state):
    """``--top 0`` is "all" in ``kubagram best``, ``colonii best`` and ``crossword moves``; ``scruble best --top 0`` was
    a usage error. It now lists all (up to the engine's bound, the same module's), as ``--top`` of the bound does."""
    every = run("best", state, "--depth", "1", "--top", "0", "--json")
    assert every.returncode == 0, every.stderr
    bound = run("best", state, "--depth", "1", "--top", "4096", "--json")
    assert json.loads(every.stdout)["moves"] == json.loads(bound.stdout)["moves"]
    assert len(json.loads(every.stdout)["moves"]) > 10
    assert run("best", state, "--depth", "1", "--top", "4097").returncode == 2
