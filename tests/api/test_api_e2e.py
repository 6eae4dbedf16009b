"""The behaviour API against the simulated NAO (naosim in lockstep) over real sockets: a client
walks the robot, and when it goes (closes, or its process is killed) the robot stops safely;
NAOqi's verbs do what NAOqi's do, checked against the simulator's ground truth."""

from __future__ import annotations

import math
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np
import pytest
import trio

from motiond.client import connect, connect_blocking
from motiond.simulated import simulated_daemon
from motiond.walk_trial import truth_robot_pose


def _truth_xy(sim) -> np.ndarray:
    return np.array(sim.body.truth().torso_position[:2])


def _soles(sim) -> np.ndarray:
    t = sim.body.truth()
    return np.concatenate([t.left_sole_position, t.right_sole_position])


async def _stands_still_within(sim, seconds: float, story: list[str]) -> float:
    """Robot time until the robot stands: the walk standing, both feet loaded and at rest on
    the floor, and the torso slower than 5 cm/s (what is left is the body's sway settling)."""
    runtime = sim.runtime
    start = runtime.now
    while runtime.now - start < seconds:
        torso, soles = _truth_xy(sim), _soles(sim)
        await runtime.wait(0.1)
        assert not sim.body.truth().fallen, "\n".join([*story, "FELL"])
        s = runtime.state
        torso_speed = float(np.linalg.norm(_truth_xy(sim) - torso)) / 0.1
        feet_moved = float(np.max(np.abs(_soles(sim) - soles)))
        if (
            runtime.walk.status().phase.value == "standing"
            and s.left_contact
            and s.right_contact
            and feet_moved < 0.001
            and torso_speed < 0.05
        ):
            return runtime.now - start
    raise AssertionError("\n".join([*story, f"still moving {seconds} s after the client went"]))


async def _walking(sim, robot, story: list[str]) -> None:
    await robot.go_to_posture("StandInit")
    start = _truth_xy(sim)
    await robot.move(0.15, 0.0, 0.0)
    await robot.wait_robot_time(2.5)
    walked = float(np.linalg.norm(_truth_xy(sim) - start))
    story.append(f"walked {walked:.3f} m in 2.5 s at 0.15 m/s asked")
    assert walked > 0.2, "\n".join(story)


async def test_a_client_walks_the_robot_and_its_disconnect_stops_it_safely(tmp_path):
    path = str(tmp_path / "api.sock")
    story: list[str] = []
    async with simulated_daemon(start="StandInit", api_path=path) as sim:
        async with connect(path, name="walker") as robot:
            await _walking(sim, robot, story)
        settle = await _stands_still_within(sim, 1.0, story)
        story.append(f"standing still {settle:.2f} s after the disconnect")
        assert not any(t.emitter.startswith("api-") for t in sim.runtime.director.view().tasks)


async def test_a_killed_client_process_leaves_the_robot_standing(tmp_path):
    path = str(tmp_path / "api.sock")
    client = (
        "import sys, time, motiond\n"
        "robot = motiond.connect_blocking(sys.argv[1])\n"
        "robot.go_to_posture('StandInit')\n"
        "robot.move(0.15, 0.0, 0.0)\n"
        "print('walking', flush=True)\n"
        "time.sleep(600)\n"
    )
    story: list[str] = []
    async with simulated_daemon(start="StandInit", api_path=path) as sim:
        process = await trio.lowlevel.open_process(
            [sys.executable, "-c", client, path], stdout=subprocess.PIPE
        )
        try:
            with trio.fail_after(120):
                assert (await process.stdout.receive_some(100)).startswith(b"walking")
                while sim.runtime.walk.status().step_count < 6:
                    await sim.runtime.next_cycle()
            process.send_signal(signal.SIGKILL)
            await process.wait()
        finally:
            if process.returncode is None:
                process.kill()
        story.append(f"killed after {sim.runtime.walk.status().step_count} steps")
        settle = await _stands_still_within(sim, 1.0, story)
        story.append(f"standing still {settle:.2f} s later")


async def test_naoqi_verbs_against_the_simulated_robot(tmp_path):
    path = str(tmp_path / "api.sock")
    async with simulated_daemon(start="Sit", api_path=path) as sim, connect(path) as robot:
        await robot.wake_up()  # StandInit
        assert sim.body.truth().torso_position[2] > 0.28
        assert not await robot.move_is_active()
        truth0 = sim.body.truth()
        odo0 = await robot.get_robot_position()
        await robot.move_toward(0.6, 0.0, 0.0)
        await robot.wait_robot_time(1.0)
        assert await robot.move_is_active()
        nxt = await robot.get_next_robot_position()
        now = await robot.get_robot_position()
        # The step under way carries it forward by at most a step. The plan puts the body
        # over the support foot where the servos have not yet brought it, so just after a
        # step begins the prediction can lie up to ~2 cm behind the measured pose.
        assert -0.03 < nxt[0] - now[0] < 0.1
        await robot.wait_robot_time(2.0)
        # Where a stop now would stand: beyond the step under way (the closing steps).
        walking = await robot.get_state()
        assert walking["stop_position"][0] > walking["next_position"][0]
        assert (await robot.get_stop_robot_position())[0] > walking["position"][0]
        await robot.stop_move()
        # Asked before the stop, the answer is a step short whenever a step begins before the
        # stop's requests arrive (on a loaded machine, now and then). Asked once stopping, it
        # is where the stop under way will stand.
        stop_at = await robot.get_stop_robot_position()
        await robot.wait_until_move_is_finished(timeout=60)
        state = await robot.get_state()
        assert state["walk"]["phase"] == "standing"
        odo = await robot.get_robot_position()
        truth = sim.body.truth()
        # The robot position is the middle of the feet: judged by the truth's (the torso's
        # would add how far it stands over them, which differs after sitting up and walking).
        walked_truth = truth_robot_pose(truth)[0] - truth_robot_pose(truth0)[0]
        walked_odo = odo[0] - odo0[0]
        assert walked_truth > 0.2
        assert abs(walked_odo - walked_truth) <= 0.1 * walked_truth  # within odometry error
        standing = await robot.get_state()
        assert standing["next_position"] == standing["position"]  # nothing under way
        assert standing["stop_position"] == standing["position"]
        # It stood where the stop was predicted: the body carries on 2-6 cm past the plan in
        # lockstep (test_stop_pose.py), a little more when a loaded machine delays cycles.
        assert abs(stop_at[0] - odo[0]) < 0.1, (stop_at, odo)
        config = dict(await robot.get_move_config())
        assert config["MaxStepX"] > 0 and set(config) >= {"StepHeight", "TorsoWy"}
        assert dict(await robot.get_move_config("Max"))["MaxStepX"] >= config["MaxStepX"]
        await robot.move(0.1, 0.0, 0.0)
        await robot.wait_robot_time(1.0)
        await robot.kill_move()
        state = await robot.wait_robot_time(0.3)
        assert state["walk"]["killed"] or state["walk"]["phase"] == "standing"
        assert await robot.go_to_posture("Crouch")
        await robot.rest()
        state = await robot.wait_robot_time(2.0)  # resting: no slump, no fall alarm
        assert state["fall"]["phase"] == "upright" and not sim.body.truth().fallen
        held = {"LHipYawPitch", "LHipPitch", "RHipPitch"}
        limp = [s for n, s in zip(robot.joints, state["stiffness"], strict=True) if n not in held]
        assert max(limp) < 0.05


def test_the_blocking_client_has_the_same_methods():
    """A notebook's view: no trio in the caller's thread (the daemon runs in another one)."""
    with tempfile.TemporaryDirectory(prefix="motiond-", dir="/tmp") as tmp:
        path = str(Path(tmp) / "api.sock")
        started, stop = threading.Event(), threading.Event()

        async def host():
            async with simulated_daemon(start="StandInit", api_path=path):
                started.set()
                await trio.to_thread.run_sync(stop.wait)

        thread = threading.Thread(target=trio.run, args=(host,), daemon=True)
        thread.start()
        assert started.wait(60)
        try:
            with connect_blocking(path, name="notebook") as robot:
                assert robot.emitter == "api-1:notebook"
                assert robot.go_to_posture("StandInit")
                robot.move(0.1, 0.0, 0.2)
                states = robot.states(every=5)
                first = next(states)
                second = next(states)
                assert second["cycle"] == first["cycle"] + 5
                states.close()
                robot.stop_move()
                robot.wait_until_move_is_finished(timeout=60)
                assert not robot.move_is_active()
                with pytest.raises(Exception, match="unknown task type"):
                    robot.emit("Fly")
                assert math.isfinite(robot.get_robot_position()[2])
        finally:
            stop.set()
            thread.join(30)


def _relative(start, end) -> tuple[float, float, float]:
    """``end``'s truth robot position in ``start``'s frame (x forward, y left, heading
    change): the middle of the soles, which moveTo moves, facing the torso's heading."""
    (x0, y0, yaw), (x1, y1, yaw1) = truth_robot_pose(start), truth_robot_pose(end)
    dx, dy = x1 - x0, y1 - y0
    c, s = math.cos(yaw), math.sin(yaw)
    turn = math.atan2(math.sin(yaw1 - yaw), math.cos(yaw1 - yaw))
    return c * dx + s * dy, -s * dx + c * dy, turn


async def test_move_to_reaches_its_target_and_arm_swing_is_per_arm(tmp_path):
    path = str(tmp_path / "api.sock")
    async with simulated_daemon(start="StandInit", api_path=path) as sim, connect(path) as robot:
        assert await robot.go_to_posture("StandInit")
        start, odo0 = sim.body.truth(), await robot.get_robot_position()
        assert await robot.move_to(1.0, 0.5, math.pi / 2)
        x, y, turn = _relative(start, sim.body.truth())
        story = f"truth ({x:.3f}, {y:.3f}, {math.degrees(turn):.1f} deg)"
        assert math.hypot(x - 1.0, y - 0.5) <= 0.10, story
        assert abs(math.degrees(turn) - 90.0) <= 10.0, story
        assert not sim.body.truth().fallen
        odo = await robot.get_robot_position()
        # get_robot_position agrees with the truth within the odometry's error (a few %).
        travelled = math.hypot(odo[0] - odo0[0], odo[1] - odo0[1])
        assert abs(travelled - math.hypot(x, y)) <= 0.05 * math.hypot(x, y) + 0.02, story
        assert (await robot.get_state())["move"]["result"] == "reached"

        await robot.set_move_arms_enabled(False, True)
        await robot.move(0.1, 0.0, 0.0)
        await robot.wait_robot_time(1.0)
        under_walk = {t.type for t in sim.runtime.director.view().tasks if t.depth == 1}
        assert "RightArm" in under_walk and "LeftArm" not in under_walk
        await robot.set_move_arms_enabled(True, True)
        await robot.wait_robot_time(0.1)
        under_walk = {t.type for t in sim.runtime.director.view().tasks if t.depth == 1}
        assert {"LeftArm", "RightArm"} <= under_walk
        # A path of targets, each relative to the one before (NAOqi's control points).
        await robot.stop_move()
        assert await robot.move_to([[0.3, 0.0, 0.0], [0.0, 0.0, math.pi / 2]])
        assert not sim.body.truth().fallen


async def test_footstep_verbs(tmp_path):
    path = str(tmp_path / "api.sock")
    async with simulated_daemon(start="StandInit", api_path=path) as sim, connect(path) as robot:
        assert await robot.go_to_posture("StandInit")
        # Blocking, as NAOqi's: returns standing, the steps made as clipped (0.3 rad of a
        # step whose toes would touch the other foot's is kept; 0.2 m wide becomes 0.16).
        await robot.set_foot_steps_with_speed(
            ["LLeg", "RLeg", "LLeg", "RLeg"],
            [[0.04, 0.1, 0.0], [0.04, -0.1, 0.0], [0.0, 0.2, 0.3], [0.0, -0.1, 0.0]],
            [1.0, 1.0, 0.5, 0.5],
        )
        state = await robot.get_state()
        assert state["walk"]["phase"] == "standing" and not sim.body.truth().fallen
        made = state["footsteps"]["done"][-4:]
        assert [m[0] for m in made] == ["left", "right", "left", "right"]
        assert made[2][2] == pytest.approx(0.16) and made[2][3] == pytest.approx(0.3)
        # Not blocking; each step ends at its time; a new list while walking goes on after
        # the step under way.
        await robot.move(0.1, 0.0, 0.0)
        await robot.wait_robot_time(1.0)
        await robot.set_foot_steps(
            ["RLeg", "LLeg"], [[0.02, -0.1, 0.0], [0.02, 0.1, 0.0]], [0.3, 0.6]
        )
        await robot.wait_until_move_is_finished(timeout=60)
        done = (await robot.get_state())["footsteps"]["done"][-2:]
        assert done == [["right", 0.02, -0.1, 0.0], ["left", 0.02, 0.1, 0.0]]
        with pytest.raises(ValueError, match="increasing"):
            await robot.set_foot_steps(["LLeg", "RLeg"], [[0, 0.1, 0], [0, -0.1, 0]], [0.5, 0.4])
        with pytest.raises(Exception, match="twice in a row"):
            await robot.set_foot_steps(["LLeg", "LLeg"], [[0, 0.1, 0], [0, 0.1, 0]], [0.4, 0.8])
        assert not sim.body.truth().fallen


async def test_a_move_ends_reached_replaced_or_killed(tmp_path):
    path = str(tmp_path / "api.sock")
    async with simulated_daemon(start="StandInit", api_path=path) as sim, connect(path) as robot:
        assert await robot.go_to_posture("StandInit")

        async def results() -> dict[int, str]:
            return dict((await robot.get_state())["move"]["ended"])

        first = (await robot.get_state())["move"]["number"] + 1
        await robot.move_to(2.0, 0.0, 0.0, wait=False)
        await robot.wait_robot_time(1.0)
        assert await robot.move_to(0.3, 0.0, 0.0)  # a new target replaces the one under way
        assert (await results())[first] == "replaced"
        # killMove stops stepping where the feet are (NAOqi: "the robot could easily fall"):
        # at a third of the gait's speed it stands.
        await robot.emit("WalkTo", x=2.0, y=0.0, speed=0.3)
        await robot.wait_robot_time(1.5)
        await robot.kill_move()
        await robot.wait_robot_time(1.0)
        assert (await results())[first + 2] == "killed" and not sim.body.truth().fallen
        assert await robot.move_to(0.5, 0.0, 0.0)  # a move after a kill walks again
        assert (await results())[first + 3] == "reached"
        # Picked up, the safety layer holds the legs: a move waits for them, and the wait
        # can be bounded.
        sim.body.lift(0.1)
        await robot.wait_robot_time(1.0)
        with pytest.raises(trio.TooSlowError):
            await robot.move_to(1.0, 0.0, 0.0, timeout=2.0)
        sim.body.lift(None)


async def test_a_client_kicks_the_ball_over_the_socket(tmp_path):
    path = str(tmp_path / "api.sock")
    async with (
        simulated_daemon(start="StandInit", api_path=path, ball=True) as sim,
        connect(path) as robot,
    ):
        await robot.move(0.0, 0.0, 0.0)  # the walk stand
        await robot.wait_robot_time(1.0)
        truth = sim.body.truth()
        middle = (truth.left_sole_position + truth.right_sole_position) / 2.0
        sim.body.place_ball(middle[0] + 0.19, middle[1] - 0.05)
        start = sim.body.truth().ball[:2].copy()
        refused = await robot.kick(0.45, -0.05, timeout=30.0)
        assert refused["outcome"] == "refused" and "out of reach" in refused["reason"]
        assert np.allclose(sim.body.truth().ball[:2], start, atol=0.002)
        kicked = await robot.kick(0.19, -0.05, timeout=60.0)
        assert kicked["outcome"] == "kicked" and kicked["foot"] == "right"
        assert kicked["kicks"] == 1
        await robot.wait_robot_time(1.0)
        moved = sim.body.truth().ball[:2] - start
        assert moved[0] > 0.2 and abs(moved[1]) < 0.1
        assert not sim.body.truth().fallen
