"""``kubasolve bench`` shows its progress on stderr even when stderr is not a terminal (issue 23: 70 s
of 'bench colonii' with nothing to see in a log): one plain line per scenario, none with --no-progress;
``--json`` says how long each scenario's set-up took."""

from __future__ import annotations

import json

import pytest

from kubasolve.bench.runner import Scenario
from kubasolve.cli.main import main


def test_plain_progress_lines_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import kubasolve.cli.bench as bench

    scenarios = [Scenario("first", "g", lambda: (time.sleep(0.05), lambda: None)[1]), Scenario("second", "g", lambda: (lambda: None))]
    monkeypatch.setattr(bench, "load_suite", lambda name: scenarios)
    assert main(["bench", "lexicon", "--min-time", "0.01", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == ["kubasolve bench: [1/2] first (setting up and timing)",
                                         "kubasolve bench: [2/2] second (setting up and timing)"]
    setup = {r["name"]: r["setup_s"] for r in json.loads(captured.out)["results"]}
    assert setup["first"] >= 0.05 > setup["second"]
    assert main(["bench", "lexicon", "--min-time", "0.01", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_a_filter_that_matches_nothing_is_a_usage_error_naming_the_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    """It was exit 1 with "no scenario matches": no flag named, nothing to choose from."""
    assert main(["bench", "lexicon", "--filter", "no such scenario"]) == 2
    err = capsys.readouterr().err
    assert "--filter 'no such scenario' matches no scenario of lexicon" in err and "python set: 1000 lookups" in err
    assert main(["bench", "lexicon", "--filter", "zzz", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad-request"
