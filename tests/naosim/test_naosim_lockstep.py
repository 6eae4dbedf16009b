"""The simulated NAO behind a real LoLA socket, driven by the project's LoLA client."""

from __future__ import annotations

import numpy as np
import trio

from lola_io.connection import LolaConnection
from lola_io.frames import ActuatorFrame
from lola_io.joints import JOINT_INDEX, NUM_JOINTS
from lola_io.server import LolaServer
from naosim import postures
from naosim.body import NaoSimBody
from naosim.sim import NaoSim

FRAMES = 1000


def _command(i: int) -> ActuatorFrame:
    target = postures.standing()
    target[JOINT_INDEX["HeadYaw"]] = 0.4 * np.sin(i * 0.02)
    return ActuatorFrame(position=target, stiffness=np.ones(NUM_JOINTS))


async def test_lockstep_over_a_unix_socket_loses_no_frame(tmp_path):
    body = NaoSimBody(seed=5)
    server = LolaServer(body, str(tmp_path / "lola.sock"))
    received = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        async with LolaConnection(server.path, connect_timeout=5.0) as conn:
            async for frame in conn:
                received.append(frame)
                await conn.send(_command(len(received) - 1))
                if len(received) == FRAMES:
                    break
            assert conn.counters.skipped == 0 and conn.counters.invalid == 0
        nursery.cancel_scope.cancel()
    assert len(received) == FRAMES
    assert server.counters.invalid == 0
    # Every frame the client saw is the body's, in order: an in-process twin given the same
    # commands reads the same positions cycle by cycle (to float32, the wire's precision).
    twin = NaoSim(seed=5)
    expected = [twin.first_frame()]
    expected += [twin.step(_command(i)) for i in range(FRAMES - 1)]
    for got, want in zip(received, expected, strict=True):
        np.testing.assert_allclose(
            got.position, want.position.astype(np.float32), rtol=0, atol=1e-6
        )
    head = [f.joint("HeadYaw") for f in received]
    assert max(head) > 0.3  # the commands really moved the robot
    assert body.frames >= FRAMES - 1
