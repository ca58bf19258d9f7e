"""The task runner yields the same results in the same order on every backend and worker count, a
worker killed mid-batch is replaced without losing or doubling a task (issue 13), a task that kills
its worker every time fails clearly instead of hanging, and a slow task holds up only its own worker
(issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubasolve.scale import run_ordered
from kubasolve.scale.runner import ATTEMPTS, ScaleError, WorkerLost
from tests.scale.helpers import die_once_then_draw, first_waits_for_the_rest, kill_worker_on, seeded_draws

TASKS = [(11, k) for k in range(12)]
EXPECTED = [seeded_draws(t) for t in TASKS]


@pytest.mark.parametrize("workers", [1, 2])
def test_local_backend_keeps_task_order(workers: int) -> None:
    assert list(run_ordered(seeded_draws, TASKS, workers=workers)) == EXPECTED


def test_init_runs_before_tasks(tmp_path: Path) -> None:
    calls: list[str] = []
    out = list(run_ordered(seeded_draws, TASKS[:2], init=lambda: calls.append("init")))
    assert calls == ["init"] and out == EXPECTED[:2]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"workers": 0}, "workers"),
        ({"workers": True}, "workers"),
        ({"backend": "spark"}, "unknown backend"),
        ({"address": "auto"}, "--address goes with --backend ray"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ScaleError, match=message):
        list(run_ordered(seeded_draws, TASKS, **kwargs))


def test_local_worker_killed_mid_batch_loses_nothing(tmp_path: Path) -> None:
    """multiprocessing.Pool.imap waited forever for the answers of a killed worker (issue 23)."""
    tasks = [(str(tmp_path), k) for k in range(8)]
    out = list(run_ordered(die_once_then_draw, tasks, workers=2))
    assert [k for k, _, _ in out] == list(range(8))
    assert [draws for _, draws, _ in out] == [seeded_draws((7, k)) for k in range(8)]
    assert (tmp_path / "died-3").exists()


def _stand_in(task: tuple[str, int, int], error: BaseException) -> tuple[int, str]:
    return task[2], type(error).__name__


def test_a_task_that_always_kills_its_local_worker_fails_alone(tmp_path: Path) -> None:
    """The task is tried alone ATTEMPTS times, then fails; the tasks that shared its pool are answered."""
    tasks = [(str(tmp_path), 3, k) for k in range(7)]
    out = list(run_ordered(kill_worker_on, tasks, workers=2, on_failure=_stand_in))
    assert out[3] == (3, "WorkerLost")
    assert out[:3] + out[4:] == [(k, seeded_draws((7, k))) for k in range(7) if k != 3]
    assert len(list(tmp_path.glob("killed-*"))) >= ATTEMPTS
    with pytest.raises(WorkerLost, match="task 3 killed its worker process"):
        list(run_ordered(kill_worker_on, tasks, workers=2))


def test_a_slow_local_task_holds_up_only_its_worker(tmp_path: Path) -> None:
    tasks = [(str(tmp_path), 12, k) for k in range(12)]
    out = list(run_ordered(first_waits_for_the_rest, tasks, workers=2))
    assert [k for k, _ in out] == list(range(12))
    assert out[0][1] != -1, "task 0 waited in vain: the other tasks were queued behind it"


def test_a_failing_task_raises_or_stands_in(tmp_path: Path) -> None:
    tasks = [(str(tmp_path), k) for k in (1, 2)]
    with pytest.raises(FileNotFoundError):
        list(run_ordered(die_once_then_draw, [("/nonexistent-folder", 1)]))
    out = list(run_ordered(die_once_then_draw, [("/nonexistent-folder", 1), *tasks], workers=2,
                           on_failure=lambda task, exc: type(exc).__name__))
    assert out[0] == "FileNotFoundError" and [k for k, _, _ in out[1:]] == [1, 2]


@pytest.mark.slow
def test_ray_backend_matches_local(ray_cluster) -> None:
    assert list(run_ordered(seeded_draws, TASKS, workers=2, backend="ray")) == EXPECTED


@pytest.mark.slow
def test_ray_worker_killed_mid_batch_loses_nothing(ray_cluster, tmp_path: Path) -> None:
    tasks = [(str(tmp_path), k) for k in range(8)]
    out = list(run_ordered(die_once_then_draw, tasks, workers=2, backend="ray"))
    assert [k for k, _, _ in out] == list(range(8))
    assert [draws for _, draws, _ in out] == [seeded_draws((7, k)) for k in range(8)]
    assert (tmp_path / "died-3").exists()  # the worker really died once
    # Ray runs a call again when its actor died before the answer was delivered (at-least-once
    # execution), so a finished task may have run twice; its result is still yielded exactly once (above).
    finished = {p.name.split("-")[1] for p in tmp_path.glob("done-*")}
    assert finished == {str(k) for k in range(8)}


@pytest.mark.slow
def test_ray_more_workers_than_cpus_runs_on_the_free_ones(ray_cluster, caplog: pytest.LogCaptureFixture) -> None:
    """--workers 3 on a 2-CPU cluster waited forever for the third actor (issue 23)."""
    with caplog.at_level("WARNING", logger="kubasolve.scale"):
        assert list(run_ordered(seeded_draws, TASKS, workers=3, backend="ray")) == EXPECTED
    assert "has 2 CPU(s); running 2 workers instead of 3" in caplog.text


@pytest.mark.slow
def test_a_slow_ray_task_holds_up_only_its_actor(ray_cluster, tmp_path: Path) -> None:
    tasks = [(str(tmp_path), 12, k) for k in range(12)]
    out = list(run_ordered(first_waits_for_the_rest, tasks, workers=2, backend="ray"))
    assert [k for k, _ in out] == list(range(12))
    assert out[0][1] != -1, "task 0 waited in vain: the other tasks were queued behind its actor"


@pytest.mark.slow
def test_a_task_that_always_kills_its_ray_actor_fails(ray_cluster, tmp_path: Path) -> None:
    tasks = [(str(tmp_path), 1, k) for k in range(3)]
    out = list(run_ordered(kill_worker_on, tasks, workers=2, backend="ray", on_failure=_stand_in))
    assert out == [(0, seeded_draws((7, 0))), (1, "WorkerLost"), (2, seeded_draws((7, 2)))]
    assert len(list(tmp_path.glob("killed-*"))) == ATTEMPTS


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # its own cluster: never beside the package's (tests/scale/conftest.py)
def test_joining_a_cluster_by_address_with_token_auth(tmp_path: Path) -> None:
    """`ray start --head` with ~/.ray/auth_token present turns token authentication on (Ray >= 2.59); a
    driver joining HOST:PORT failed after 20 s, and --workers above the cluster's CPUs hung (issue 23).
    The cluster runs in its own process group and temp folder, stopped by pid (never `ray stop`, which
    would stop every Ray instance of the machine)."""
    import os
    import secrets
    import shutil
    import signal
    import socket
    import subprocess
    import sys
    import tempfile

    pytest.importorskip("ray")
    repo = Path(__file__).resolve().parents[2]
    home = tmp_path / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text(secrets.token_hex(32))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(home), PYTHONPATH=str(repo))
    ray_bin = Path(sys.executable).with_name("ray")
    temp = tempfile.mkdtemp(prefix="ks-ray-", dir="/tmp")  # short: Ray's socket paths live under it
    head = subprocess.Popen([str(ray_bin), "start", "--head", "--block", "--num-cpus", "2", "--port", str(port),
                             "--temp-dir", temp, "--include-dashboard", "false", "--disable-usage-stats"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        assert head.stdout is not None
        said = []
        for line in head.stdout:
            said.append(line)
            if "Ray runtime started" in line:
                break
        else:
            pytest.fail("ray start did not start:\n" + "".join(said[-30:]))
        code = ("from kubasolve.scale import run_ordered\n"
                "from tests.scale.helpers import seeded_draws\n"
                f"print(list(run_ordered(seeded_draws, [(11, k) for k in range(12)], workers=3, backend='ray', address='127.0.0.1:{port}')))")
        driver = subprocess.run([sys.executable, "-c", code], env=env, cwd=repo, capture_output=True, text=True, timeout=300, check=False)
        assert driver.returncode == 0, driver.stderr[-2000:]
        assert driver.stdout.strip() == str(EXPECTED)
        assert "running 2 workers instead of 3" in driver.stderr
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        head.wait(timeout=60)
        shutil.rmtree(temp, ignore_errors=True)


def test_an_address_nothing_listens_on_is_refused_at_once(tmp_path: Path) -> None:
    """Ray retried ``--address 127.0.0.1:1`` for minutes (over 200 s), printing a GCS warning every few seconds;
    now the run fails with one error naming the address. In a fresh process: a Ray already running in this one
    would be used instead of the address."""
    import os
    import socket
    import subprocess
    import sys

    pytest.importorskip("ray")
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    repo = Path(__file__).resolve().parents[2]
    code = ("from kubasolve.scale import run_ordered\nfrom kubasolve.scale.runner import ScaleError\n"
            "from tests.scale.helpers import seeded_draws\n"
            f"for address in ('127.0.0.1:{port}', 'ray://127.0.0.1:{port}'):\n"
            "    try:\n"
            "        list(run_ordered(seeded_draws, [(11, 0)], backend='ray', address=address))\n"
            "    except ScaleError as exc:\n"
            "        print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(repo)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [f"cannot reach the Ray cluster at {a}: Connection refused (is `ray start --head` "
                                        "running there, with that port open to this machine?)"
                                        for a in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}")]
