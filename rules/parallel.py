"""Lint shares of files in forked processes (`cuticle lint --jobs`).

The parent first builds what every share needs from the whole workspace (each rule's ``prepare(run)``: the
constraint index of CU201), then forks one process per share but the first, which it lints itself. A child
inherits the parent's warm state (imports, compiled patterns, the indexes) copy-on-write, lints its files and
sends its findings back pickled through a pipe. A child that fails in any way (crash, signal, unreadable
result) has its share linted again in the parent: the findings never depend on the number of processes.
"""

from __future__ import annotations

import gc
import os
import pickle
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .engine import RunContext
    from .model import Rule

    Share = list[tuple[str, list[Rule]]]
    T = R = object


def balance(sized: list[tuple[int, T]], n: int) -> list[list[T]]:
    """``(size, item)`` pairs split into at most ``n`` non-empty groups of about equal total size: the largest item
    first into the lightest group, so the groups end within one item's size of even (ties: the given order)."""
    groups: list[list[T]] = [[] for _ in range(n)]
    load = [0] * n
    for i in sorted(range(len(sized)), key=lambda i: -sized[i][0]):
        k = load.index(min(load))
        groups[k].append(sized[i][1])
        load[k] += sized[i][0]
    return [g for g in groups if g]


def prepare(shares: list[Share], run: RunContext) -> None:
    """Run each rule's ``prepare(run)`` once, so forked processes share its result instead of redoing it."""
    seen: set[str] = set()
    for share in shares:
        for _, rules in share:
            for r in rules:
                if r.prepare is not None and r.code not in seen:
                    seen.add(r.code)
                    try:
                        r.prepare(run)
                    except Exception:  # noqa: BLE001 - the rule's own check() runs it again and reports the crash
                        pass


def lint_shares(shares: list[Share], run: RunContext, work: Callable[[Share], R]) -> list[R]:
    """``[work(share) ...]`` for every share, the first in this process and the others in forked ones."""
    run.map, run.jobs = fork_map, len(shares)
    try:
        prepare(shares, run)
    finally:
        run.map, run.jobs = None, 1
    return fork_map(work, shares)


def fork_map(fn: Callable[[T], R], items: list[T]) -> list[R]:
    """``[fn(item) for item in items]``, the first item in this process and each other in a forked one.

    Results come back pickled through pipes. An item whose process fails in any way (crash, signal, unreadable
    result) is computed again here, so the results never depend on the forking.
    """
    # Objects alive now are never collected by the children: freezing them keeps a child's collections from
    # walking (and so copying) the parent's whole heap.
    gc.freeze()
    children: list[tuple[int, int, T]] = []
    try:
        for item in items[1:]:
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: never returns into the caller
                code = 70
                try:
                    os.close(r)
                    data = pickle.dumps(fn(item), protocol=pickle.HIGHEST_PROTOCOL)
                    with os.fdopen(w, "wb") as out:
                        out.write(data)
                    code = 0
                except BaseException:  # noqa: BLE001 - any failure: the parent computes the item again
                    pass
                finally:
                    os._exit(code)
            os.close(w)
            children.append((pid, r, item))
        results = [fn(items[0])]
        while children:
            pid, r, item = children.pop(0)
            results.append(_collect(pid, r, item, fn))
    finally:
        for pid, r, _ in children:  # interrupted: no child outlives the call
            _reap(pid, r, kill=True)
        gc.unfreeze()
    return results


def _collect(pid: int, r: int, item: T, fn: Callable[[T], R]) -> R:
    with os.fdopen(r, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        try:
            return pickle.loads(data)
        except Exception:  # noqa: BLE001 - a truncated result: compute the item here instead
            pass
    sys.stderr.write(f"cuticle: a worker process failed (status {status}); redoing its part in-process\n")
    return fn(item)


def _reap(pid: int, r: int, kill: bool) -> None:
    """Kill (when ``kill``) and wait for a child, and close its pipe."""
    import signal

    try:
        if kill:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    try:
        os.close(r)
    except OSError:
        pass
