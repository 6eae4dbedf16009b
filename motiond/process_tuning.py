"""Process settings for a hard 12 ms cycle: garbage-collector tuning and real-time scheduling.

The daemon applies these once, after start-up, and ``motiond bench cycle`` applies the same
function, so the benchmark measures the configuration the daemon actually runs.

- GC: after start-up the heap is frozen (``gc.freeze``: the long-lived Director, model and
  tables are never scanned again) and the young generation's threshold is raised, so a
  collection is rare and short (measured to cut the worst cycle).
- Scheduling: motion code on a NAO runs above everything else (the robot falls if a cycle is
  late). With ``rt_priority > 0`` the process asks for ``SCHED_FIFO`` at that priority; it
  needs the privilege (root or CAP_SYS_NICE) and is refused quietly otherwise.
"""

from __future__ import annotations

import gc
import logging
import os

log = logging.getLogger(__name__)

#: Young-generation threshold once the heap is frozen (CPython's default is 700 allocations).
GC_THRESHOLD = (50_000, 50, 100)


def tune_gc() -> None:
    """Collect once, freeze what survives, and make young collections rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


def request_realtime(priority: int) -> bool:
    """Ask for SCHED_FIFO at ``priority`` (1..99); True when granted, False when refused."""
    if not 1 <= priority <= 99:
        raise ValueError(f"real-time priority must be in 1..99, got {priority}")
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except (OSError, AttributeError) as exc:
        log.warning("real-time priority %d refused (%s); running at normal priority", priority, exc)
        return False
    return True


def tune_process(*, gc_tuning: bool = True, rt_priority: int = 0) -> bool:
    """Apply the daemon's settings; returns whether real-time scheduling is in force."""
    if gc_tuning:
        tune_gc()
    return request_realtime(rt_priority) if rt_priority > 0 else False
