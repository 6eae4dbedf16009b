"""The API server on a kinematic NAO: emissions take effect in the next cycle, bad input gets
an error or a disconnect while everyone else is served, and a client's tasks end with it."""

from __future__ import annotations

import os
import socket
import stat

import msgpack
import numpy as np
import pytest
import trio
from api_daemon import RawClient, api_daemon, frame

from lola_io.joints import JOINT_INDEX
from motiond.api.protocol import MAX_MESSAGE, ApiError
from motiond.api.server import ApiServer, peer_allowed
from motiond.client import connect
from skills.script_files import shipped_script

_YAW = JOINT_INDEX["HeadYaw"]


def _tasks_of(runtime, emitter: str) -> list[str]:
    return [t.type for t in runtime.director.view().tasks if t.emitter == emitter and t.depth == 0]


async def _cycles_pass(runtime, n: int) -> None:
    for _ in range(n):
        await runtime.next_cycle()


async def test_socket_is_owner_only_and_an_emit_shows_in_the_next_frame():
    async with api_daemon() as d:
        mode = os.stat(d.path).st_mode
        assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600
        frames = []
        d.runtime.observers.append(lambda now, s, a: frames.append((d.runtime.counters.cycles, a)))
        async with connect(d.path, name="head") as robot:
            assert robot.emitter == "api-1:head"
            before = len(frames)
            effect = await robot.emit("Head", positions={"HeadYaw": 0.5}, duration=0.0)
            await _cycles_pass(d.runtime, 3)
            moved = [c for c, a in frames[before:] if a.position[_YAW] > 0.01]
            assert moved and moved[0] == effect  # the very frame the reply named
            await robot.emit("Head", positions={"HeadYaw": -0.5}, duration=5.0)
            await _cycles_pass(d.runtime, 2)
            assert _tasks_of(d.runtime, "api-1:head") == ["Head"]
            await robot.withdraw("Head")
            await _cycles_pass(d.runtime, 2)
            assert _tasks_of(d.runtime, "api-1:head") == []


async def test_disconnect_withdraws_every_task_of_the_client():
    async with api_daemon() as d:
        async with connect(d.path) as robot:
            await robot.emit("Head", positions={"HeadYaw": 0.3}, duration=5.0)
            await robot.emit("LeftArm", positions={"LShoulderPitch": 1.0}, duration=5.0)
            await _cycles_pass(d.runtime, 2)
            assert sorted(_tasks_of(d.runtime, robot.emitter)) == ["Head", "LeftArm"]
            name = robot.emitter
        await _cycles_pass(d.runtime, 3)
        assert _tasks_of(d.runtime, name) == []
        assert d.api.counters.clients == 0 and d.api.counters.disconnects == {"closed": 1}


async def test_a_silent_client_loses_its_tasks_after_the_timeout():
    async with api_daemon(timeout=0.3) as d:
        raw = await RawClient.open(d.path)
        reply = await raw.request(
            {
                "op": "emit",
                "id": 1,
                "type": "Head",
                "fields": {"positions": {"HeadYaw": 0.2}, "duration": 30.0},
            }
        )
        assert reply["op"] == "ok"
        await _cycles_pass(d.runtime, 2)
        assert _tasks_of(d.runtime, "api-1") == ["Head"]
        with trio.fail_after(5):
            assert await raw.receive() is None  # the daemon hung up on the silent client
        await _cycles_pass(d.runtime, 2)
        assert _tasks_of(d.runtime, "api-1") == []
        assert d.api.counters.disconnects == {"silent": 1}


async def test_bad_messages_get_errors_and_nothing_is_applied_while_others_are_served():
    async with api_daemon() as d, connect(d.path, name="good") as good:
        raw = await RawClient.open(d.path)
        bad = [
            ({"op": "emit", "id": 1, "type": "Fly"}, "unknown_type"),
            ({"op": "emit", "id": 2, "type": "Walk", "fields": {"forward": "x"}}, "bad_field"),
            ({"op": "emit", "id": 3, "type": "Head", "fields": {}}, "bad_field"),
            ({"op": "emit", "id": 4, "type": "Walk", "priority": "high"}, "bad_field"),
            ({"op": "emit", "id": 5, "type": "Walk", "priority": 2e9}, "bad_priority"),
            ({"op": "emit", "id": 6, "type": "Walk", "optional": 1}, "bad_field"),
            ({"op": "teleport", "id": 7}, "bad_op"),
            ({"op": "subscribe", "id": 8, "state": -1}, "refused"),
            ({"op": "withdraw", "id": 9, "type": "Nope"}, "unknown_type"),
        ]
        for message, code in bad:
            reply = await raw.request(message)
            assert reply["op"] == "error" and reply["id"] == message["id"], reply
            assert reply["code"] == code, reply
        for garbage in (b"\xc1\xc1", msgpack.packb([1, 2, 3]), msgpack.packb({"op": 1})):
            await raw.send_raw(frame(garbage))
            reply = await raw.receive()
            assert reply["op"] == "error" and reply["id"] is None
        # The stream is intact after all that: a good request is still served.
        assert (await raw.request({"op": "ping", "id": 10}))["op"] == "ok"
        assert _tasks_of(d.runtime, "api-2") == []
        cycles = d.runtime.counters.cycles
        assert await good.ping() >= cycles  # the other client, and the cycle, carry on
        await _cycles_pass(d.runtime, 2)
        assert d.runtime.counters.cycle_errors == 0


async def test_oversize_and_truncated_frames_cost_only_their_own_connection():
    async with api_daemon() as d, connect(d.path) as good:
        raw = await RawClient.open(d.path)
        await raw.send_raw((MAX_MESSAGE + 1).to_bytes(4, "big") + b"x" * 100)
        reply = await raw.receive()
        assert reply["code"] == "oversize"
        assert await raw.receive() is None
        truncated = await RawClient.open(d.path)
        body = msgpack.packb({"op": "emit", "id": 1, "type": "Walk", "fields": {}})
        await truncated.send_raw(frame(body)[:-3])  # and then the client dies
        await truncated.stream.aclose()
        await _cycles_pass(d.runtime, 3)
        assert not any(t.type == "Walk" for t in d.runtime.director.view().tasks)
        assert await good.ping() > 0
        assert d.api.counters.disconnects.get("oversize") == 1


async def test_a_client_that_never_reads_is_dropped_not_waited_for():
    async with api_daemon(write_timeout=0.2) as d, connect(d.path) as good:
        raw = await RawClient.open(d.path)
        await raw.send({"op": "subscribe", "id": 1, "state": 1, "tree": True})
        # It never reads: its socket buffer fills with states, the writer blocks, the daemon
        # hangs up on it. Meanwhile the cycle and the good client go on.
        start = d.runtime.counters.cycles
        with trio.fail_after(20):
            while d.api.counters.disconnects.get("not reading", 0) == 0:
                await trio.sleep(0.05)
                assert await good.ping() > start
        assert d.api.counters.dropped_states > 0
        assert d.runtime.counters.cycles > start + 10
        assert d.runtime.counters.cycle_errors == 0


async def test_a_flooding_client_is_held_to_its_budget_per_cycle():
    async with api_daemon() as d, connect(d.path) as good:
        raw = await RawClient.open(d.path)
        burst = b"".join(frame(msgpack.packb({"op": "ping", "id": i})) for i in range(400))
        start = d.runtime.counters.cycles
        await raw.send_raw(burst)
        replies = [await raw.receive() for _ in range(400)]
        assert [r["id"] for r in replies] == list(range(400))
        # 32 messages per cycle at most: 400 took at least 12 cycles.
        assert replies[-1]["cycle"] - start >= 400 // 32 - 1
        assert await good.ping() > start


async def test_too_many_clients_are_refused_politely():
    async with api_daemon(max_clients=2) as d, connect(d.path), connect(d.path):
        with pytest.raises(ApiError, match="too many clients"):
            async with connect(d.path):
                pass
        assert d.api.counters.refused == 1


async def test_tree_and_state_subscriptions():
    async with api_daemon() as d, connect(d.path) as robot:
        async with robot.subscribe(every=2, tree=True) as messages:
            first = await messages.receive()
            assert first["op"] == "tree"  # the tree as it is, at once
            await robot.emit("Head", positions={"HeadYaw": 0.1}, duration=5.0)
            seen_head = False
            cycles = []
            with trio.fail_after(10):
                async for message in messages:
                    if message["op"] == "tree":
                        seen_head |= any(t["type"] == "Head" for t in message["tasks"])
                    else:
                        cycles.append(message["cycle"])
                        assert len(message["joints"]) == 25 and message["walk"]["phase"]
                    if seen_head and len(cycles) >= 3:
                        break
            assert all(c % 2 == 0 for c in cycles)
        assert robot.latest is not None and robot.latest["counters"]["api"]["clients"] == 1


async def test_state_gait_types_and_operator_ops():
    async with api_daemon() as d, connect(d.path) as robot, connect(d.path) as other:
        state = await robot.get_state()
        assert set(state) >= {"walk", "position", "next_position", "fall", "temperature_status"}
        gait = await robot.get_gait()
        assert gait["values"]["max_forward"] == d.runtime.walk.gait.max_forward
        types = await robot.get_types()
        assert "positions" in types["Head"]["fields"]
        await other.emit("Walk", forward=0.1)
        assert await robot.stop_all() == 1  # the operator's stop reaches every client's walk
        await robot.freeze()
        await _cycles_pass(d.runtime, 2)
        assert np.all(d.runtime.last_frame.stiffness == 0.0)
        await robot.unfreeze()
        await robot.set_auto_getup(False)
        assert not d.runtime.supervisor.auto_getup
        d.runtime.safe_sit()  # as after a LoLA outage: held until released
        await _cycles_pass(d.runtime, 2)
        assert _tasks_of(d.runtime, "runtime") == ["Script"]
        await robot.release_safe_sit()
        await _cycles_pass(d.runtime, 2)
        assert _tasks_of(d.runtime, "runtime") == []
        await robot.set_move_arms_enabled(False, True)
        assert d.runtime.walk.arms_enabled == (False, True)
        with pytest.raises(ApiError, match="true or false"):
            await robot.request("auto_getup", enabled="yes")


async def test_a_stale_socket_is_replaced_and_a_live_one_or_a_file_is_not(tmp_path):
    async with api_daemon() as d:
        with pytest.raises(OSError, match="another process is serving it"):
            await ApiServer(d.runtime, d.path).serve()
    stale = tmp_path / "stale.sock"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(stale))
    s.close()  # a socket file nobody listens on, as a killed daemon leaves
    plain_file = tmp_path / "file"
    plain_file.write_text("mine")
    async with api_daemon() as d:
        async with trio.open_nursery() as nursery:
            await nursery.start(ApiServer(d.runtime, stale).serve)
            async with connect(str(stale)) as robot:
                assert await robot.ping() > 0
            nursery.cancel_scope.cancel()
        assert not stale.exists()  # removed on the way out
        with pytest.raises(OSError, match="not a socket"):
            await ApiServer(d.runtime, plain_file).serve()
    assert plain_file.read_text() == "mine"


def test_peers_of_another_user_are_not_allowed():
    assert peer_allowed(1000, 1000) and peer_allowed(0, 1000)
    assert not peer_allowed(1001, 1000)


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to act as another user")
async def test_another_user_cannot_connect():
    async with api_daemon() as d:
        # The socket's directory is made reachable, so only the socket's own mode stops them.
        os.chmod(os.path.dirname(d.path), 0o755)
        pid = os.fork()
        if pid == 0:  # the other user: nobody
            code = 1
            try:
                os.setgid(65534)
                os.setuid(65534)
                probe = socket.socket(socket.AF_UNIX)
                try:
                    probe.connect(d.path)
                except PermissionError:
                    code = 3
            finally:
                os._exit(code)
        _, status = await trio.to_thread.run_sync(os.waitpid, pid, 0)
        assert os.waitstatus_to_exitcode(status) == 3
        assert d.api.counters.connections == 0


async def test_walks_name_a_gait_or_naoqis_move_config():
    async with api_daemon() as d, connect(d.path) as robot:
        walk = d.runtime.walk
        await robot.move(1.0, 0.0, 0.0, gait="careful")
        await _cycles_pass(d.runtime, 2)
        assert walk.target_gait == walk.gaits["careful"]
        assert walk.status().request.forward == walk.gaits["careful"].max_forward  # clamped
        await robot.move(1.0, 0.0, 0.0, {"MaxStepX": 0.03, "Frequency": 0.5})
        await _cycles_pass(d.runtime, 2)
        period = walk.base_gait.step_period
        assert walk.status().request.forward == pytest.approx(0.03 / period)
        with pytest.raises(ApiError, match=r"unknown gait 'moonwalk'.*careful"):
            await robot.move(0.1, 0.0, 0.0, gait="moonwalk")
        with pytest.raises(ApiError, match=r"MaxStepX = 0.5: must be within \[0.001, 0.08\]"):
            await robot.move(0.1, 0.0, 0.0, {"MaxStepX": 0.5})
        # NAOqi's per-foot keys: move and moveToward take them, moveTo does not.
        await robot.move_toward(0.5, 0.0, 0.0, {"LeftStepHeight": 0.03, "TorsoWy": 0.05})
        await _cycles_pass(d.runtime, 2)
        request = walk.request
        assert request.left_gait.foot_lift == 0.03 and request.right_gait is None
        assert request.gait.torso_lean == 0.05 and request.left_gait.torso_lean == 0.05
        assert walk.generator.foot_gaits == (request.left_gait, None)
        with pytest.raises(ApiError, match=r"RightTorsoWy = 0\.1: per foot only"):
            await robot.move(0.1, 0.0, 0.0, {"RightTorsoWy": 0.1})
        with pytest.raises(ApiError, match=r"LeftStepHeight = 0\.02: a per-foot key"):
            await robot.move_to(0.5, 0.0, 0.0, {"LeftStepHeight": 0.02})
        config = dict(await robot.get_move_config())
        assert config["MaxStepX"] == pytest.approx(walk.base_gait.max_forward * period)
        assert dict(await robot.get_move_config("Max"))["MaxStepX"] == 0.08
        assert "careful" in (await robot.get_gait())["named"]


async def test_stand_asks_for_the_high_stand_and_the_state_says_which_stand():
    async with api_daemon() as d, connect(d.path, name="stander") as robot:
        await robot.move(0.1, 0.0, 0.0)
        await robot.stand(high=True)
        await _cycles_pass(d.runtime, 2)
        request = d.runtime.walk.request
        assert request.high_stand and request.forward == 0.0
        assert _tasks_of(d.runtime, "api-1:stander") == ["Walk"]  # the move replaced
        state = await robot.get_state()
        assert state["walk"]["stand"] in ("plain", "saving", "high")
        with pytest.raises(ApiError, match="high_stand"):
            await robot.emit("Walk", high_stand="yes")


async def test_a_posture_over_another_clients_walk_is_timed_from_the_closed_feet():
    async with (
        api_daemon() as d,
        connect(d.path, name="walker", priority=1.0) as walker,
        connect(d.path, name="poser", priority=2.0) as poser,
    ):
        await walker.move(0.2, 0.0, 0.0)
        await walker.wait_robot_time(1.0)
        assert d.runtime.walk.stepping(d.runtime.now)
        start = d.runtime.now
        reply = await poser.request("emit", type="Script", fields={"name": "StandInit"})
        assert reply["waits_for_legs"] is True
        await poser.withdraw("Script")
        await walker.wait_robot_time(0.5)  # the walk resumes: the poser's script is gone
        assert d.runtime.walk.stepping(d.runtime.now)
        closed: list[float] = []
        walk = d.runtime.walk

        def watch(now, sensor, actuator):
            if not closed and walk.status().phase.value == "standing":
                closed.append(now)

        d.runtime.observers.append(watch)
        duration = await poser.play("StandInit", hold=True)
        # Returned once the walk had closed its feet and the whole script had played after.
        assert closed and closed[0] > start + 0.5
        assert d.runtime.now >= closed[0] + duration
        stand = shipped_script("StandInit").final_pose().position
        assert np.allclose(d.runtime.last_frame.position, stand, atol=1e-6)
        with pytest.raises(ApiError, match="interrupt"):
            await poser.request(
                "emit", type="Script", fields={"name": "StandInit", "interrupt": "yes"}
            )
        reply = await poser.request(
            "emit", type="Script", fields={"name": "Sit", "interrupt": True}
        )
        assert reply["waits_for_legs"] is False
