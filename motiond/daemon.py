"""The daemon's lifetime: run the cycle over LoLA until SIGTERM or SIGINT, then sit and relax.

On a signal the robot is not dropped where it stands: the shipped Sit plays at the runtime's
safety priority (above every behaviour), then Relax (sit, then stiffness 0), and only then does
the process exit. A second signal during that sequence exits at once. If LoLA is gone (no
frames come), the sequence cannot progress in robot time, so it is bounded in trio time too.
"""

from __future__ import annotations

import logging
import signal

import trio

from lola_io.connection import DEFAULT_PATH, LolaConnection
from motiond.process_tuning import tune_process
from motiond.runtime import DEFAULT_SAFE_SIT_AFTER, Runtime
from skills.script_files import shipped_script

log = logging.getLogger(__name__)

#: The scripts played, in order, before the daemon exits on a signal.
SHUTDOWN_SCRIPTS = ("Sit", "Relax")
# Beyond the scripts' own durations, how long (trio time) the shutdown may wait for frames.
_SHUTDOWN_SLACK = 3.0


async def sit_and_relax(runtime: Runtime) -> None:
    """Play :data:`SHUTDOWN_SCRIPTS` above every behaviour and wait for each to end."""
    for name in SHUTDOWN_SCRIPTS:
        log.info("shutdown: %s", name)
        await runtime.play_safety(name)


async def run_daemon(
    lola_path: str = DEFAULT_PATH,
    *,
    api_path: str | None = None,
    api_timeout: float = 1.0,
    safe_sit_after: int = DEFAULT_SAFE_SIT_AFTER,
    tune: bool = False,
    rt_priority: int = 0,
    runtime: Runtime | None = None,
    task_status: trio.TaskStatus[Runtime] = trio.TASK_STATUS_IGNORED,
) -> int:
    """Serve LoLA at ``lola_path`` until SIGTERM/SIGINT; sit, relax, and return 0.

    ``api_path``: serve the behaviour API (`motiond.api.server`) on this Unix socket; None
    serves none.
    ``tune`` applies the process settings of `motiond.process_tuning` (GC; SCHED_FIFO when
    ``rt_priority`` > 0); the command line sets it, in-process tests leave the process alone.
    ``task_status.started(runtime)`` once the signal handlers are in place.
    """
    runtime = runtime if runtime is not None else Runtime(safe_sit_after=safe_sit_after)
    if tune:
        # After start-up, so the frozen heap holds the Director, the model and the tables.
        tune_process(rt_priority=rt_priority)
    budget = sum(shipped_script(n).duration for n in SHUTDOWN_SCRIPTS) + _SHUTDOWN_SLACK
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery, LolaConnection(lola_path) as conn:
            nursery.start_soon(runtime.run, conn)
            if api_path is not None:
                from motiond.api.server import ApiServer

                await nursery.start(ApiServer(runtime, api_path, timeout=api_timeout).serve)
            log.info("motiond running on LoLA socket %s", lola_path)
            task_status.started(runtime)
            async for signum in signals:
                log.info("%s: sitting down before exiting", signal.Signals(signum).name)
                break
            with trio.move_on_after(budget) as shutdown:

                async def second_signal() -> None:
                    async for _ in signals:
                        log.warning("second signal: exiting without finishing the sit")
                        shutdown.cancel()
                        return

                nursery.start_soon(second_signal)
                await sit_and_relax(runtime)
            if shutdown.cancelled_caught:
                log.warning("shutdown sequence did not finish (no LoLA frames?)")
            nursery.cancel_scope.cancel()
    c = runtime.counters
    log.info(
        "motiond stopped after %d cycles (%d overruns, %d safety faults, %d errors)",
        c.cycles,
        c.overruns,
        c.safety_faults,
        c.cycle_errors + c.provider_errors,
    )
    return 0
