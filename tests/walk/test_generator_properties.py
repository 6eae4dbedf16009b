"""The gait generator driven directly (no Director, no physics) by random request sequences:
its plans stay within the gait's limits, the feet never overlap, every pose is a proper pose."""

from __future__ import annotations

import itertools
import math

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from walk_helpers import Sense

from providers.model import load_nao_model
from skills.kick import load_kick_parameters
from skills.kick.in_walk import kick_step
from skills.walk import Phase, Velocity, WalkGenerator, clamp_request, load_gait
from skills.walk.calibration import GAIN_MAX
from skills.walk.profiles import smooth_step
from skills.walk.request import step_velocity

GAIT = load_gait()
FOOT = load_nao_model().foot
DT = 0.012


def _outline(pose: np.ndarray, left: bool) -> np.ndarray:
    """The sole box's corners in the ground plane (x, y), from a torso-frame sole pose."""
    # The left foot's outer edge is on +y, the right foot's on -y.
    inner, outer = (FOOT.inner, FOOT.outer) if left else (FOOT.outer, FOOT.inner)
    corners = np.array(
        [[FOOT.front, outer], [FOOT.front, -inner], [-FOOT.rear, -inner], [-FOOT.rear, outer]]
    )
    rot = pose[:2, :2]
    return corners @ rot.T + pose[:2, 3]


def _separated(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test for two convex quadrilaterals."""
    for poly in (a, b):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() < pb.min() or pb.max() < pa.min():
                return True
    return False


def _check_pose(pose: np.ndarray) -> None:
    assert pose.shape == (4, 4) and np.all(np.isfinite(pose))
    rot = pose[:3, :3]
    assert np.allclose(rot @ rot.T, np.eye(3), atol=1e-9)
    assert np.linalg.det(rot) > 0.0
    assert np.array_equal(pose[3], [0.0, 0.0, 0.0, 1.0])


requests = st.tuples(
    st.sampled_from([-5.0, -0.3, -0.1, 0.0, 0.05, 0.2, 1.0, 5.0]),
    st.sampled_from([-5.0, -0.05, 0.0, 0.03, 0.1, 5.0]),
    st.sampled_from([-20.0, -1.0, 0.0, 0.5, 2.0, 20.0]),
)


@settings(max_examples=60)
@given(
    st.lists(st.tuples(requests, st.integers(5, 80)), min_size=1, max_size=8),
    st.floats(0.55, 1.2),
    st.booleans(),
)
def test_random_request_sequences_keep_every_plan_inside_the_limits(plan, touchdown, never):
    gen = WalkGenerator(GAIT)
    sense = Sense()
    gen.begin(*_stand(gen))
    reach = max(GAIT.max_forward, GAIT.max_backward) * 0.6 * max(GAIN_MAX) + 0.05  # m, generous
    side = GAIT.max_left * 2 * 0.6 + 0.03 + 1e-9  # the opening step's width and the biases
    for (forward, left, turn), cycles in plan:
        gen.set_request(clamp_request(GAIT, forward, left, turn))
        for _ in range(cycles):
            stepping = gen.phase in (Phase.WALKING, Phase.STOPPING)
            # The swing foot lands at ``touchdown`` of the step (or never: the timeout).
            landed = stepping and not never and gen.stride.t >= touchdown * gen.stride.period
            swing, support = (
                (slice(0, 4), slice(4, 8))
                if gen.swing_left
                else (
                    slice(4, 8),
                    slice(0, 4),
                )
            )
            sense.fsr[:] = 0.6
            if stepping:
                sense.fsr[swing] = 0.9 if landed else 0.0
                sense.fsr[support] = 0.6
            out = gen.update(DT, sense)
            for pose in (out.left_sole, out.right_sole):
                _check_pose(pose)
            assert 0.0 <= out.left_weight <= 1.0
            assert gen.left.z >= 0.0 and gen.right.z >= 0.0
            for foot in (gen.left, gen.right):
                assert abs(foot.x) <= reach and abs(foot.y) <= side
                assert abs(foot.yaw) <= GAIT.max_turn * 0.6 * max(GAIN_MAX) + 0.1
            # Feet never toe in and never come closer than the stance.
            assert gen.left.y >= -1e-12 and gen.right.y <= 1e-12
            assert gen.left.yaw >= -1e-12 and gen.right.yaw <= 1e-12
            assert _separated(_outline(out.left_sole, True), _outline(out.right_sole, False))
            assert all(math.isfinite(a) for a in (*out.left_arm, *out.right_arm))


def _stand(gen: WalkGenerator):
    out = gen.update(DT, Sense())  # standing: the walk stand's soles
    return out.left_sole, out.right_sole


def test_a_zero_request_stands_with_the_feet_together_within_two_steps():
    gen, sense = _walking(0.2, 0.0, 0.5, cycles=400)
    gen.set_request(clamp_request(GAIT, 0.0, 0.0, 0.0))
    steps = gen.step_count
    for _ in range(200):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
        if gen.phase is Phase.STANDING:
            break
    assert gen.phase is Phase.STANDING
    assert gen.step_count - steps <= 2
    assert gen.left.together() and gen.right.together()
    assert gen.left.z == gen.right.z == 0.0


def test_kill_lands_the_swing_foot_where_it_is_within_its_step_then_holds():
    gen, sense = _walking(0.2, cycles=200)
    while not (gen.phase is Phase.WALKING and gen.stride.t < 0.4 * gen.stride.period):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    steps = gen.step_count
    swing = gen.left if gen.swing_left else gen.right
    gen.kill()
    assert gen.phase is Phase.STOPPING and gen.killed
    feet = [(f.x, f.y, f.yaw) for f in (gen.left, gen.right)]
    cycles = 0
    while gen.phase is not Phase.STANDING:
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
        cycles += 1
        # No foot moves along the ground; the swing foot only finishes its lift.
        assert [(f.x, f.y, f.yaw) for f in (gen.left, gen.right)] == feet
        assert cycles * DT <= gen.stride.period + DT
    assert gen.left.z == gen.right.z == 0.0 and swing.z == 0.0
    assert gen.step_count == steps  # a kill's landing is no step of the walk
    for _ in range(100):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.phase is Phase.STANDING and gen.step_count == steps
    gen.resume()
    for _ in range(100):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.phase is Phase.WALKING


def test_kill_between_steps_or_standing_stands_at_once():
    gen, _ = _walking(0.2, cycles=200)
    gen.stride.t = gen.stride.period  # the step's time is up: nothing is left to land
    gen.kill()
    assert gen.phase is Phase.STANDING and gen.left.z == gen.right.z == 0.0
    standing = WalkGenerator(GAIT)
    standing.kill()
    assert standing.phase is Phase.STANDING


def test_no_contact_for_a_while_halts_the_walk_as_lifted():
    gen, sense = _walking(0.1)
    sense.left_contact = sense.right_contact = False
    for _ in range(10):
        gen.update(DT, sense)
    assert gen.halted == "lifted" and gen.phase is Phase.STANDING


def test_leaning_forward_past_the_guard_bars_backward_steps():
    gen, sense = _walking(-0.2, cycles=300)
    assert gen.executed.forward < 0.0
    lean = gen._posture().lean
    sense.pitch = lean + GAIT.back_step_lean + 0.02  # the body falls forwards
    seen = []
    for _ in range(150):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
        seen.append(gen.executed.forward)
    # Backward speed only shrinks, to none: no backward step while falling forwards.
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(seen))
    assert seen[-1] == 0.0 and gen.phase is Phase.WALKING
    sense.pitch = lean  # upright again: backwards it goes
    for _ in range(150):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.executed.forward < 0.0


def test_leaning_back_past_the_guard_slows_a_forward_walk_until_it_has_caught_up():
    # The shipped guard (1.0 rad) is past the deep lean that makes a step a catch step; a
    # guard short of it slows the walk alone.
    gait = attrs.evolve(GAIT, slow_lean=GAIT.back_catch_deep - 0.1)
    gen, sense = _walking(0.4, cycles=400, gait=gait)
    top = gen.executed.forward
    assert top > 0.3
    seen = []
    for _ in range(100):
        # The legs outrun the body: it leans back past the guard, whatever lean the speed asks.
        sense.pitch = gen._posture().lean - gait.slow_lean - 0.05
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
        seen.append(gen.executed.forward)
    # Slower every step, by slow_decel, to a stop at worst; never backwards.
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(seen))
    steps = sorted(set(seen), reverse=True)
    assert all(a - b <= GAIT.slow_decel + 1e-9 for a, b in itertools.pairwise(steps))
    assert seen[-1] < top - GAIT.slow_decel and seen[-1] >= 0.0
    assert gen.phase is Phase.WALKING
    for _ in range(300):
        sense.pitch = gen._posture().lean  # caught up: the walk speeds up again
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.executed.forward == pytest.approx(top)


def test_leaning_forwards_past_the_guard_slows_a_fast_forward_walk_only():
    fast = GAIT.fast_lean_share * GAIT.max_forward
    gen, sense = _walking(0.4, cycles=400)
    top = gen.executed.forward
    assert top > fast
    seen = []
    for _ in range(150):
        # The body falls forwards ahead of its steps, whatever lean the speed asks.
        sense.pitch = gen._posture().lean + GAIT.fast_lean + 0.05
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
        seen.append(gen.executed.forward)
    # It slows by slow_decel a step while fast; below the share it may speed up by a step's
    # acceleration, never further, and it never stops or goes backwards.
    assert min(seen) < fast
    assert max(seen[len(seen) // 2 :]) <= fast + GAIT.forward_accel + 1e-9
    assert min(seen) > 0.0
    steps = [b - a for a, b in itertools.pairwise(seen) if b < a]
    assert steps and all(-d <= GAIT.slow_decel + 1e-9 for d in steps)
    for _ in range(300):
        sense.pitch = gen._posture().lean  # the steps have caught up: full speed again
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.executed.forward == pytest.approx(top)
    # Leaning as far forwards at a speed under the share, or walking backwards: unchanged.
    for speed in (0.9 * fast, -0.2):
        lean = GAIT.fast_lean + 0.05
        v = step_velocity(GAIT, Velocity(speed), Velocity(speed), lean, lean, catch=False)
        assert v.forward == pytest.approx(speed)


def test_falling_backwards_fast_the_next_step_goes_back_but_not_drifting_back_slowly():
    fast = -(GAIT.back_catch_rate + 0.5)
    for rate, asked, steps_back in ((fast, 0.2, True), (0.0, 0.2, False), (fast, -0.3, False)):
        gen, sense = _walking(0.2, cycles=300)
        assert gen.executed.forward > 0.1
        # Asked to walk backwards, the walk slows down by its ratchet instead (a catch step
        # there fell forwards on a weak body).
        gen.set_request(clamp_request(GAIT, asked, 0.0, 0.0))
        before = gen.step_count
        seen = []
        while gen.step_count < before + 2:
            # Pushed from the front: leaning back past the guard and pitching back fast (or,
            # as a sprint's torso drifts, leaning as far back but slowly).
            sense.pitch = gen._posture().lean - GAIT.back_catch_lean - 0.1
            sense.gyro = np.array([0.0, rate, 0.0])
            _land_at(gen, sense, 0.8)
            gen.update(DT, sense)
            seen.append(gen.executed.forward)
        if steps_back:
            assert seen[-1] == -min(GAIT.back_catch_speed, GAIT.max_backward)
            # Not where a fall may not be caught (the steps after an in-walk kick).
            lean, rate = sense.pitch - gen._posture().lean, gen._body.gyro_y
            held = step_velocity(GAIT, Velocity(0.2), Velocity(0.2), lean, lean, rate, catch=False)
            assert held.forward > 0.0
        else:
            assert min(seen) >= 0.0  # two steps later, not yet backwards: the ratchet's pace


@pytest.mark.parametrize(
    ("past_deep", "rate", "steps_back"),
    [(0.05, 0.0, True), (0.05, 0.6, True), (-0.05, 0.0, False), (-0.05, -1.5, True)],
)
def test_leaning_back_past_the_deep_lean_the_step_goes_back_at_any_pitch_rate(
    past_deep, rate, steps_back
):
    # Pushed from the front mid-step, the body may begin the next step 0.4 rad back with the
    # pitch rate already turning: the rate alone let it walk on forwards and fall backwards.
    # Shallower than the deep lean, it takes the rate (a sprint's torso drifts back slowly).
    lean = -(GAIT.back_catch_deep + past_deep)
    assert lean < -GAIT.back_catch_lean
    v = step_velocity(GAIT, Velocity(0.2), Velocity(0.2), lean, lean, rate)
    assert (v.forward == -min(GAIT.back_catch_speed, GAIT.max_backward)) is steps_back
    if not steps_back:
        assert v.forward > 0.0


def test_the_step_after_a_catch_step_ratchets_from_a_standstill_not_from_its_backward_speed():
    # A catch step brings the body upright within the step; a next step that went on
    # backwards at the ratchet's pace pulled the feet from under a body already pitching
    # forwards again (bench sequences, perturbed #3 seed 29).
    gen, sense = _walking(0.2, cycles=300)
    sense.pitch = gen._posture().lean - GAIT.back_catch_deep - 0.05  # falling back deep
    before = gen.step_count
    while gen.step_count == before:
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.executed.forward == -min(GAIT.back_catch_speed, GAIT.max_backward)
    sense.pitch = gen._posture().lean  # caught: upright again
    sense.gyro = np.zeros(3)
    while gen.step_count == before + 1:
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert 0.0 <= gen.executed.forward <= 0.2


def _walking(forward: float, left: float = 0.0, turn: float = 0.0, cycles: int = 150, gait=GAIT):
    """A generator walking at the (clamped) request after ``cycles`` cycles, and its sense."""
    gen = WalkGenerator(gait)
    sense = Sense()
    gen.begin(*_stand(gen))
    gen.set_request(clamp_request(gait, forward, left, turn))
    for _ in range(cycles):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.phase is Phase.WALKING
    return gen, sense


def _land_at(gen: WalkGenerator, sense: Sense, share: float) -> None:
    stepping = gen.phase in (Phase.WALKING, Phase.STOPPING)
    sense.fsr[:] = 0.6
    if stepping:
        swing = slice(0, 4) if gen.swing_left else slice(4, 8)
        sense.fsr[swing] = 0.9 if gen.stride.t >= share * gen.stride.period else 0.0


def test_a_tilted_or_spinning_torso_stops_the_stepping_until_it_is_calm_again():
    gen, sense = _walking(0.1)
    sense.tilt = GAIT.stop_tilt + 0.05
    gen.update(DT, sense)
    assert gen.halted == "tilt" and gen.phase is Phase.STANDING
    sense.tilt = 0.0
    sense.gyro = np.array([GAIT.stop_gyro + 0.5, 0.0, 0.0])
    gen.update(DT, sense)
    assert gen.halted == "tilt"  # the first reason holds while anything is wrong
    sense.gyro = np.zeros(3)
    for _ in range(20):  # calm, but not yet for long enough
        gen.update(DT, sense)
    assert gen.halted is not None and gen.phase is Phase.STANDING
    for _ in range(100):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    assert gen.halted is None and gen.phase is Phase.WALKING


def _next_step(gen: WalkGenerator, sense: Sense, *, opening: bool) -> None:
    """On to the start of the next opening (the left foot leads) or closing step."""
    for _ in range(100):
        steps = gen.step_count
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
        if gen.step_count != steps and gen.swing_left == opening:
            return
    raise AssertionError("no such step began")


def test_the_body_leads_a_fast_sideways_opening_and_a_slow_one_splits_it_in_half():
    # The shipped gait splits every opening in half (Walk2014's): a leading share shows the
    # schedule.
    gait = attrs.evolve(GAIT, side_open_share=0.6)
    for left, share in ((gait.max_left, 0.6), (0.1 * gait.max_left, 0.51)):
        gen, sense = _walking(0.0, left, cycles=300, gait=gait)
        _next_step(gen, sense, opening=True)
        assert gen.swing_left and gen.executed.left == pytest.approx(left)
        left_end, right_end = gen.stride.end
        opening = left_end.y - right_end.y
        assert opening > 0.0
        # The support foot's end is where the body has moved over it.
        assert -right_end.y == pytest.approx(share * opening)


@pytest.mark.parametrize(
    ("velocity", "lead"),
    [
        ((0.0, 1.0, 0.0), GAIT.close_lead),  # straight sideways at the limit
        ((0.0, 0.875, 0.0), GAIT.close_lead / 2.0),  # halfway from 3/4 of it
        ((0.0, 0.6, 0.0), 0.0),
        ((0.4, 1.0, 0.0), 0.0),  # sideways while going forwards, as walks to poses do
    ],
)
def test_a_closing_foot_runs_ahead_only_walking_straight_sideways_near_the_limit(velocity, lead):
    forward, left, turn = velocity
    gen, sense = _walking(forward, left * GAIT.max_left, turn, cycles=400)
    _next_step(gen, sense, opening=True)
    assert gen.stride.side_lead == 0.0  # an opening foot never runs ahead
    _next_step(gen, sense, opening=False)
    assert gen.stride.side_lead == pytest.approx(lead)
    # The closing foot's sideways travel is that far ahead of a foot that does not lead.
    (_, r0), (_, r1) = gen.stride.start, gen.stride.end
    assert abs(r1.y) < abs(r0.y)
    for _ in range(8):
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
    s = gen.stride.t / gen.stride.period
    side = smooth_step(min(1.0, s + lead), GAIT.side_dead_share)
    assert gen.right.y == pytest.approx(r0.y + (r1.y - r0.y) * side)


@pytest.mark.parametrize(
    ("velocity", "kicks"),
    [
        ((0.2, 0.0, 0.0), True),
        ((0.0, 0.15, 0.0), False),
        ((0.0, -0.15, 0.0), False),
        ((-0.1, 0.0, 0.0), False),
    ],
)
def test_a_pending_in_walk_kick_steps_only_in_a_forward_walk(velocity, kicks):
    # A kick step lunges 5-15 cm ahead: in a walk stepping aside it fell (a ball left pending
    # while the behaviour stepped aside, the random-sequence runs).
    gen, sense = _walking(*velocity, cycles=200)
    gen.kick = kick_step(load_kick_parameters(), None)
    stance = 2.0 * (gen._hip_y + GAIT.foot_spread)
    kicked = placed = False
    for _ in range(300):
        # The ball stays 0.2 m ahead of the left sole, in its line, whatever the feet do.
        gen.kick.ball = {True: (0.2, 0.0), False: (0.2, stance)}
        _land_at(gen, sense, 0.8)
        gen.update(DT, sense)
        kicked, placed = kicked or gen.kicking, placed or gen.placing
        if gen.kick.made:
            break
    assert kicked is kicks and placed is kicks
    if not kicks:
        assert gen.executed.left == pytest.approx(velocity[1])  # the request as asked


@pytest.mark.parametrize(("gyro", "first_step_after"), [(0.0, 0.0), (0.6, 0.5), ("calms", 0.2)])
def test_the_first_step_after_the_start_waits_for_the_body_to_quieten(gyro, first_step_after):
    # The blend to the walk stand ends with the body still pitching (the servos lag it); a
    # step begun then rocks it further (in-walk kicks two steps after a start from StandInit
    # fell). A quiet body steps at once; a moving one waits until it calms, at most 0.5 s.
    gen = WalkGenerator(GAIT)
    sense = Sense()
    gen.begin(*_stand(gen))
    gen.set_request(clamp_request(GAIT, 0.2, 0.0, 0.0))
    t, stepped_at = 0.0, None
    sense.gyro[1] = 0.0 if gyro == 0.0 else 0.6  # moving as the blend ends, or not
    while gen.phase is Phase.STARTING:
        gen.update(DT, sense)
        t += DT
    started = t
    while stepped_at is None and t < started + 2.0:
        rate = (0.6 if t < started + 0.2 else 0.0) if gyro == "calms" else gyro
        sense.gyro[1] = rate
        gen.update(DT, sense)
        t += DT
        if gen.phase is Phase.WALKING:
            stepped_at = t - started
    assert stepped_at is not None
    # The gyro's low-pass adds a few cycles to a calming body.
    assert first_step_after <= stepped_at <= first_step_after + 0.1


@pytest.mark.parametrize(
    ("behind", "catches", "stands"), [(0.2, False, False), (0.27, False, True), (0.35, True, False)]
)
def test_after_an_in_walk_kick_only_a_deep_backward_fall_is_caught(behind, catches, stands):
    # The kick step's swing pitches the body back about 0.2 rad: no catch step for that (the
    # walk walks on after a kick); a body falling back further is caught (a perturbed NAO,
    # kicking two steps after a start, fell uncaught 0.41 rad back); between the two the step
    # is made in place (a back-heavy NAO walked on there and tipped over backwards).
    gen, sense = _walking(0.2, cycles=300)
    sense.gyro = np.array([0.0, -(GAIT.back_catch_rate + 0.5), 0.0])  # pitching back fast
    for lean in (0.0, behind):  # a step to let the gyro's filter settle, then the kick step
        before = gen.step_count
        gen.kicking = lean > 0.0
        sense.pitch = gen._posture().lean - lean
        while gen.step_count == before:
            _land_at(gen, sense, 0.8)
            gen.update(DT, sense)
    assert (gen.executed.forward < 0.0) is catches
    assert (gen.executed.forward == 0.0) is stands
