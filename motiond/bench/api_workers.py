"""The processes of ``motiond bench api``: the daemon (with its API) and the clients.

Every process measures over the same window of CLOCK_MONOTONIC, ``--start`` to ``--start`` +
``--seconds`` (the orchestrator sets it after the processes have had time to start), so the
start-up of one does not count against another.

``python -m motiond.bench.api_workers daemon --lola L --api A --start T --seconds S`` runs the
daemon's cycle and API server on a LoLA socket and prints one JSON line: cycles, overruns and
missed cycles in the window, the API's counters, the peak RSS, the time from each cycle's end
until its state was written to every subscriber's socket, and the emit-to-effect samples of
the probe client. For each Head emission of the client named ``probe``, that is the
cycles from its arrival (cycles completed when the server handled it) to the first actuator
frame whose HeadYaw target moved towards it.

``python -m motiond.bench.api_workers clients --api A --clients N --first K --start T
--seconds S`` runs N clients, numbered from K (client 0 is the probe), in one trio loop. Each
subscribes to every cycle's state and emits at 10 Hz:
- the probe: a Head command alternating between two yaws; it is the only client on the head;
- the others: arm commands, each at its own priority, which the Director arbitrates.

It prints one JSON line: state latencies (receipt minus the state's stamp, CLOCK_MONOTONIC
of the cycle's end in the daemon), states received and dropped, emits made and refused.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time

import trio

PROBE_PRIORITY = 100.0
EMIT_HZ = 10.0
PROBE_YAW = 0.4
_LINGER = 3.0  # s the daemon serves after the window, while the clients disconnect


async def _until(stamp: float) -> None:
    """Sleep until CLOCK_MONOTONIC reads ``stamp``."""
    await trio.sleep(max(0.0, stamp - time.monotonic()))


async def _daemon(args: argparse.Namespace) -> dict:
    import attrs

    from lola_io.connection import LolaConnection
    from lola_io.joints import JOINT_INDEX
    from motiond.api import requests
    from motiond.api.server import ApiServer
    from motiond.process_tuning import tune_process
    from motiond.runtime import Runtime

    runtime = Runtime()
    tune_process()
    yaw = JOINT_INDEX["HeadYaw"]
    pending: list[tuple[int, float]] = []  # (arrival cycles, target yaw) of probe emits
    samples: list[int] = []
    last: list[float | None] = [None]
    window = [False]
    handlers = requests.HANDLERS
    original_emit = handlers["emit"]

    def watched_emit(session, message: dict) -> dict:
        result = original_emit(session, message)
        if session.name.endswith(":probe") and message.get("type") == "Head":
            target = float(message["fields"]["positions"]["HeadYaw"])
            pending.append((runtime.counters.cycles, target))
        return result

    handlers["emit"] = watched_emit

    def observe(now, sensor, actuator) -> None:
        position = float(actuator.position[yaw])
        previous, last[0] = last[0], position
        if previous is None or not pending:
            return
        arrival, target = pending[0]
        if (target - previous) * (position - previous) > 0.0:
            if window[0]:
                samples.append(runtime.counters.cycles - arrival)
            pending.pop(0)

    runtime.observers.append(observe)
    api = ApiServer(runtime, args.api, timeout=2.0)
    publish_ms: list[float] = []
    publish = api._publish_cycle

    def timed_publish() -> None:
        publish()
        if window[0]:
            publish_ms.append(1000.0 * (time.monotonic() - runtime.cycle_end_stamp))

    api._publish_cycle = timed_publish  # type: ignore[method-assign]
    connection = LolaConnection(args.lola, connect_timeout=10.0)
    async with trio.open_nursery() as nursery, connection as conn:
        nursery.start_soon(runtime.run, conn)
        await nursery.start(api.serve)
        await _until(args.start)
        start, window[0] = attrs.asdict(runtime.counters), True
        api_start = api.counters.as_map()
        await _until(args.start + args.seconds)
        end, window[0] = attrs.asdict(runtime.counters), False
        api_end = api.counters.as_map()
        await trio.sleep(_LINGER)  # the clients leave first, as they would a real daemon
        nursery.cancel_scope.cancel()
    return {
        "cycles": end["cycles"] - start["cycles"],
        "cycle_overruns": end["overruns"] - start["overruns"],
        "missed_cycles": end["missed_cycles"] - start["missed_cycles"],
        "cycle_errors": end["cycle_errors"] - start["cycle_errors"],
        "clients": api_start["clients"],
        "dropped_states": api_end["dropped_states"] - api_start["dropped_states"],
        "api": api_end,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        "effect_cycles": samples,
        "publish_ms": publish_ms,
    }


async def _clients(args: argparse.Namespace) -> dict:
    from motiond.api.protocol import ApiError
    from motiond.client import connect

    latencies: list[float] = []
    totals = {"states": 0, "dropped": 0, "emits": 0, "refused": 0}
    end = args.start + args.seconds

    async def client(index: int) -> None:
        probe = index == 0
        name = "probe" if probe else f"load{index}"
        rng = random.Random(index)
        arm, joint = ("LeftArm", "LShoulderPitch") if index % 2 else ("RightArm", "RShoulderPitch")
        async with connect(args.api, name=name, priority=float(index)) as robot:

            async def emitter() -> None:
                toggle = False
                await trio.sleep(rng.random() / EMIT_HZ)  # spread the clients over the period
                while time.monotonic() < end:
                    toggle = not toggle
                    try:
                        if probe:
                            yaw = PROBE_YAW if toggle else -PROBE_YAW
                            await robot.emit(
                                "Head", positions={"HeadYaw": yaw}, priority=PROBE_PRIORITY
                            )
                        else:
                            await robot.emit(arm, positions={joint: rng.uniform(-1.0, 1.0)})
                        totals["emits"] += time.monotonic() >= args.start
                    except ApiError:
                        totals["refused"] += 1
                    await trio.sleep(1.0 / EMIT_HZ)

            async with trio.open_nursery() as nursery:
                nursery.start_soon(emitter)
                async with robot.subscribe(every=1) as states:
                    with trio.move_on_after(max(0.0, end - time.monotonic())):
                        async for message in states:
                            received = time.monotonic()
                            if message["op"] == "state" and received >= args.start:
                                latencies.append(received - message["stamp"])
                                totals["states"] += 1
                nursery.cancel_scope.cancel()
            totals["dropped"] += robot.dropped_states

    async with trio.open_nursery() as nursery:
        for i in range(args.first, args.first + args.clients):
            nursery.start_soon(client, i)
    return {"latencies_ms": [1000.0 * x for x in latencies], **totals}


def main(argv: list[str] | None = None) -> int:
    """Run one worker; its JSON is the last line of its output."""
    parser = argparse.ArgumentParser(prog="python -m motiond.bench.api_workers")
    parser.add_argument("role", choices=("daemon", "clients"))
    parser.add_argument("--lola")
    parser.add_argument("--api", required=True)
    parser.add_argument("--start", type=float, required=True, help="CLOCK_MONOTONIC, s")
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--first", type=int, default=0, help="the first client's number")
    args = parser.parse_args(argv)
    result = trio.run(_daemon if args.role == "daemon" else _clients, args)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result["cpu_s"] = usage.ru_utime + usage.ru_stime
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
