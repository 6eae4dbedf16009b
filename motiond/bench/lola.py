"""``motiond bench lola``: what LoLA I/O costs per cycle.

- ``codec_us``: decoding one sensor frame plus encoding one complete actuator frame (median);
- ``roundtrip_*``: lockstep client ↔ server over a real Unix socket, both in this process, from
  the client's ``send`` to the next sensor frame in its hands (server decode, a constant body,
  server encode, two socket hops, client decode); percentiles over every cycle.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

import numpy as np

from motiond.bench.timing import BenchResult, Goal, median_time


def run(quick: bool) -> BenchResult:
    """Measure the codec and the socket round trip."""
    import trio

    from lola_io.codec import decode_sensor, encode_actuator, encode_sensor
    from lola_io.frames import ActuatorFrame, SensorFrame

    sensor_bytes = encode_sensor(SensorFrame.neutral(position=np.linspace(-1, 1, 25)))
    command = ActuatorFrame.complete(np.linspace(-0.5, 0.5, 25), np.full(25, 0.8))
    # Many short samples: the median then reflects the code, not the scheduler of a busy machine.
    repeat, number = (51, 20) if quick else (401, 20)

    def cycle() -> None:
        decode_sensor(sensor_bytes)
        encode_actuator(command)

    codec = median_time(cycle, repeat=repeat, number=number)
    decode = median_time(lambda: decode_sensor(sensor_bytes), repeat=repeat, number=number)
    encode = median_time(lambda: encode_actuator(command), repeat=repeat, number=number)
    cycles = 300 if quick else 3000
    trips = trio.run(_roundtrips, cycles, command)
    trips_ms = np.array(trips) * 1e3
    return BenchResult(
        name="lola",
        figures={
            "codec_us": codec * 1e6,
            "sensor_decode_us": decode * 1e6,
            "actuator_encode_us": encode * 1e6,
            "roundtrip_median_ms": float(statistics.median(trips_ms)),
            "roundtrip_p99_ms": float(np.percentile(trips_ms, 99)),
            "roundtrip_cycles": float(len(trips)),
        },
        units={
            "codec_us": "us",
            "sensor_decode_us": "us",
            "actuator_encode_us": "us",
            "roundtrip_median_ms": "ms",
            "roundtrip_p99_ms": "ms",
        },
        goals={"codec_us": Goal(100.0), "roundtrip_p99_ms": Goal(1.0)},
        notes=("round trip: client and server share this process and its core",),
    )


async def _roundtrips(cycles: int, command) -> list[float]:
    import trio

    from lola_io.connection import LolaConnection
    from lola_io.frames import SensorFrame
    from lola_io.server import LolaServer

    class ConstantBody:
        def __init__(self) -> None:
            self.frame = SensorFrame.neutral()

        def first_frame(self) -> SensorFrame:
            return self.frame

        def step(self, command, dt: float) -> SensorFrame:
            return self.frame

    path = os.path.join(tempfile.mkdtemp(dir="/tmp"), "lola")
    server = LolaServer(ConstantBody(), path)
    trips: list[float] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(path, connect_timeout=5.0) as conn:
            sent_at = None
            async for _ in conn:
                now = time.perf_counter()
                if sent_at is not None:
                    trips.append(now - sent_at)
                if len(trips) >= cycles:
                    break
                sent_at = time.perf_counter()
                await conn.send(command)
        nursery.cancel_scope.cancel()
    os.rmdir(os.path.dirname(path))
    return trips
