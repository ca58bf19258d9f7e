"""Where a cold first run's time goes: each command of the install-time build and each kernel's compilation, in CPU.

    KUBASOLVE_CACHE_DIR=$(mktemp -d) python benchmarks/first_run_profile.py [GAME ...] [engine]

Runs the commands of ``kubasolve.prebuild.WORKLOAD`` (the games named, default all; ``engine``: the install's
engine session too) in this process, in order, on whatever cache ``KUBASOLVE_CACHE_DIR`` names (give an empty
one for a first run), and prints on stderr, per command, its CPU time and the CPU time of the kernel compilations
it started, then per kernel the CPU time of its compilations (outermost ones; nested kernels are counted in their
caller's time), how many compilations it had (nested ones too) and for how many type signatures. CPU, not wall
time: on a shared machine the wall time of a compile grows with the load (8 times at load 12 on 2 cores), its CPU
time much less. Not imported by the package or tests.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from collections import defaultdict
from typing import Any


def main(argv: list[str]) -> int:
    cpu0, wall0 = time.process_time(), time.perf_counter()
    from numba.core import event

    stack: list[float] = []
    kernels: dict[str, list[Any]] = defaultdict(lambda: [0, 0.0, set()])  # name -> [compilations, CPU s, signatures]
    total = [0.0]

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            stack.append(time.process_time())

        def on_end(self, ev: Any) -> None:
            spent = time.process_time() - stack.pop()
            func = ev.data["dispatcher"].py_func
            entry = kernels[f"{func.__module__.rsplit('.', 1)[-1]}.{func.__qualname__}"]
            entry[0] += 1
            entry[2].add(str(ev.data["args"]))
            if not stack:
                entry[1] += spent
                total[0] += spent

    event.register("numba:compile", Listener())
    from kubasolve.cli.main import main as kubasolve
    from kubasolve.prebuild import ENGINE_SESSION, WORKLOAD

    rows = []
    for group in argv or [*WORKLOAD, "engine"]:
        compiled, start = total[0], time.process_time()
        if group == "engine":
            from kubasolve.engine.server import serve

            lines = "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(ENGINE_SESSION, 1))
            serve(io.StringIO(lines), io.StringIO())
            rows.append(("engine session (the install's)", time.process_time() - start, total[0] - compiled))
            continue
        for args in WORKLOAD[group]:
            compiled, start = total[0], time.process_time()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
                kubasolve(args)
            rows.append((" ".join(args)[:70], time.process_time() - start, total[0] - compiled))
    err = sys.stderr
    print(f"\nwall {time.perf_counter() - wall0:.1f} s, CPU {time.process_time() - cpu0:.1f} s, of it compiling {total[0]:.1f} s",
          file=err)
    print("   CPU s  compiling  command", file=err)
    for name, cpu, comp in rows:
        print(f"{cpu:8.1f} {comp:10.1f}  {name}", file=err)
    print("   CPU s  compilations  signatures  kernel", file=err)
    for name, (count, cpu, sigs) in sorted(kernels.items(), key=lambda kv: -kv[1][1]):
        if cpu >= 0.05 or (len(sigs) > 1 and not name.startswith(("arrayobj.", "arraymath.", "builtins.", "literal."))):
            print(f"{cpu:8.2f} {count:13d} {len(sigs):11d}  {name}", file=err)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
