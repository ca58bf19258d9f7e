"""Running many independent seeded tasks (self-play games, positions to analyse) on one or many machines.

:func:`run_ordered` yields results in task order from the ``local`` backend (this process or a pool of
local processes) or the ``ray`` backend (actors on a Ray cluster, installed with ``kubasolve[ray]``).
Ray is imported only when that backend is asked for; ``import kubasolve`` never imports it.
"""

from kubasolve.scale.runner import BACKENDS, run_ordered

__all__ = ["BACKENDS", "run_ordered"]
