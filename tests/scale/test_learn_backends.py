"""``crossword learn-leaves --backend ray`` learns the same table as the local backend (the games are seeded
per task and their samples gathered in task order, so the tally and the fit see the same racks)."""

from __future__ import annotations

from typing import Any

from kubasolve.games.crossword.learn import table_digest
from kubasolve.scale.learn import learn_leaves


def test_ray_backend_learns_the_local_table(ray_cluster: Any) -> None:
    local, rep_local = learn_leaves([30], seed=4, held_out=2, workers=1)
    remote, rep_remote = learn_leaves([30], seed=4, held_out=2, workers=2, backend="ray")
    assert rep_local[0]["racks"] == rep_remote[0]["racks"] > 500
    assert table_digest(local) == table_digest(remote) and len(local) > 1000
    assert rep_local[0]["held_out"]["next_score"] == rep_remote[0]["held_out"]["next_score"]
