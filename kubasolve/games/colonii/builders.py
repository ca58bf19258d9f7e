"""Who builds this turn: the rulebook's question round as a pluggable step.

The rulebook lets players win the right to build through a question round that it does not
describe. A *builder schedule* maps the game so far to the player who builds next; the rule setting
``builders`` names one from :data:`BUILDERS`. The default, ``round-robin``, lets each player build
in turn. A frontend that runs a real question round passes the winner explicitly instead
(``Referee.apply(..., player=...)`` is not needed: it sets ``state.current`` with :func:`choose`).
"""

from __future__ import annotations

from collections.abc import Callable

BuilderSchedule = Callable[[int, int, int], int]
"""(previous builder, turn number, number of players) -> next builder."""


def round_robin(previous: int, turn: int, n_players: int) -> int:
    """Each player builds in turn."""
    return (previous + 1) % n_players


BUILDERS: dict[str, BuilderSchedule] = {"round-robin": round_robin}
"""Registered schedules by rule-setting name; add an entry to plug in another question round."""


__all__ = ["BUILDERS", "BuilderSchedule", "round_robin"]
