"""Footsteps: ALMotion's three clips (checked against the values libalmath's own tests give),
the task's checks, the generator placing each planned step, and the steps in physics."""

from __future__ import annotations

import math

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from walk_helpers import Sense

from skills.walk import Footstep, Footsteps, WalkGenerator, load_gait
from skills.walk.footstep_clip import (
    LEFT_FOOT_BOX,
    MAX_STEP_THETA,
    MAX_STEP_X,
    MAX_STEP_Y,
    MIN_FOOT_SEPARATION,
    MIN_STEP_X,
    RIGHT_FOOT_BOX,
    avoid_collision,
    boxes_collide,
    clip_footstep,
    clip_on_gait,
    clip_to_ellipse,
    clip_with_ellipse,
    moved_box,
)
from skills.walk.footsteps import PlannedStep
from skills.walk.odometry import Pose2D
from skills.walk.placement import PlacementCorrection

# libalmath's own test boxes (its avoidfootcollision test): 0.080 m ahead of the ankle.
TEST_LEFT = ((0.080, 0.050), (0.080, -0.038), (-0.047, -0.038), (-0.047, 0.050))
TEST_RIGHT = ((0.080, 0.038), (0.080, -0.050), (-0.047, -0.050), (-0.047, 0.038))


@pytest.mark.parametrize(
    ("a", "b", "move", "expected"),
    [
        (0.08, 0.06, (0.05, 0.04), (0.05, 0.04)),  # inside: unchanged
        (0.08, 0.06, (0.08, 0.06), (0.05656, 0.04242)),
        (0.08, 0.06, (-0.08, -0.05), (-0.06145, -0.03841)),
        (0.04, 0.06, (-0.04, 0.06), (-0.02828, 0.04242)),
        (-0.04, -0.06, (-0.04, 0.06), (-0.02828, 0.04242)),  # the half-axes' signs are ignored
        (0.06, 0.16, (0.0, 0.16), (0.0, 0.16)),  # on the ellipse: unchanged
    ],
)
def test_the_ellipse_clip_gives_libalmath_s_values(a, b, move, expected):
    assert clip_to_ellipse(a, b, *move) == pytest.approx(expected, abs=1e-4)


def test_the_collision_clip_gives_libalmath_s_values():
    free = Pose2D(0.0, 0.1, 0.0)
    assert avoid_collision(free, False, TEST_LEFT, TEST_RIGHT) == free
    turned = avoid_collision(Pose2D(0.0, 0.085, math.radians(40)), False, TEST_LEFT, TEST_RIGHT)
    assert (turned.x, turned.y) == (0.0, 0.085)
    assert turned.theta == pytest.approx(0.196349, abs=1e-4)


@pytest.mark.parametrize(
    ("move", "left_support", "expected"),
    [
        ((0.12, 0.10, 0.0), False, (MAX_STEP_X, 0.10, 0.0)),  # too long
        ((-0.09, 0.10, 0.0), False, (MIN_STEP_X, 0.10, 0.0)),  # too far back
        ((0.0, 0.05, 0.0), False, (0.0, MIN_FOOT_SEPARATION, 0.0)),  # feet too close
        ((0.0, -0.10, 0.0), False, (0.0, MIN_FOOT_SEPARATION, 0.0)),  # the left foot crossing
        ((0.0, 0.30, 0.0), False, (0.0, MAX_STEP_Y, 0.0)),  # too wide
        ((0.0, 0.10, 0.0), True, (0.0, -MIN_FOOT_SEPARATION, 0.0)),  # the right foot crossing
        ((0.0, -0.10, 1.0), True, (0.0, -0.10, MAX_STEP_THETA)),  # turning too far
    ],
)
def test_the_gait_clip(move, left_support, expected):
    assert clip_on_gait(Pose2D(*move), left_support) == pytest.approx(Pose2D(*expected))


def test_the_three_clips_apply_in_order():
    # A long, wide, turned left step: shortened onto the ellipse beyond the minimum
    # separation, and turned less where the boxes would overlap.
    move = Pose2D(0.10, 0.15, 0.5)
    gait = clip_on_gait(move, False)
    ellipse = clip_with_ellipse(gait)
    assert clip_footstep(move, False) == avoid_collision(ellipse, False)
    assert (ellipse.x / MAX_STEP_X) ** 2 + (
        (ellipse.y - MIN_FOOT_SEPARATION) / (MAX_STEP_Y - MIN_FOOT_SEPARATION)
    ) ** 2 == pytest.approx(1.0)
    inward = clip_footstep(Pose2D(0.0, 0.09, -0.5), False)  # toes turned in: would collide
    assert -0.5 < inward.theta <= 0.0
    assert not boxes_collide(RIGHT_FOOT_BOX, moved_box(LEFT_FOOT_BOX, inward))


_moves = st.builds(
    Pose2D,
    st.floats(-0.2, 0.2),
    st.floats(-0.3, 0.3),
    st.floats(-1.0, 1.0),
)


@given(_moves, st.booleans())
def test_a_clipped_step_is_within_every_limit_and_clipping_it_again_changes_nothing(
    move, left_support
):
    clipped = clip_footstep(move, left_support)
    assert MIN_STEP_X <= clipped.x <= MAX_STEP_X
    assert MIN_FOOT_SEPARATION - 1e-9 <= abs(clipped.y) <= MAX_STEP_Y + 1e-9
    assert (clipped.y < 0) == left_support  # on the stepping foot's own side
    assert abs(clipped.theta) <= MAX_STEP_THETA
    fixed, moving = (
        (LEFT_FOOT_BOX, RIGHT_FOOT_BOX) if left_support else (RIGHT_FOOT_BOX, LEFT_FOOT_BOX)
    )
    if clipped.theta != 0.0:  # a step turned back to 0 is where the bisection gives up
        assert not boxes_collide(fixed, moved_box(moving, clipped))
    again = clip_footstep(clipped, left_support)
    assert again.x == pytest.approx(clipped.x) and again.y == pytest.approx(clipped.y)


# ---------------------------------------------------------------------- the task


@pytest.mark.parametrize(
    ("steps", "problem"),
    [
        ([], "must not be empty"),
        ([Footstep("left", 0.0, 0.1), Footstep("left", 0.0, 0.1)], "twice in a row"),
        ([{"foot": "middle", "x": 0, "y": 0.1}], "foot must be"),
        ([{"foot": "left", "x": math.nan, "y": 0.1}], "finite"),
        ([{"foot": "left", "x": 0.0, "y": 0.1, "duration": 5.0}], "duration"),
        ([{"foot": "left", "x": 0.0, "y": 0.1, "speed": 0.0}], "speed"),
        ([{"foot": "left", "x": 0.0, "y": 0.1, "speed": 0.5, "duration": 0.3}], "not both"),
        ("LLeg", "list of footsteps"),
    ],
)
def test_bad_footsteps_are_refused_with_their_reason(steps, problem):
    with pytest.raises((TypeError, ValueError), match=problem):
        Footsteps(steps)


def test_naoqi_leg_names_are_accepted():
    task = Footsteps([{"foot": "LLeg", "x": 0.04, "y": 0.1}, Footstep("RLeg", 0.04, -0.1)])
    assert [s.foot for s in task.steps] == ["left", "right"]


# ---------------------------------------------------------------------- the generator


def _relative(gen: WalkGenerator, left: bool) -> Pose2D:
    """The planned end of the step: the swing sole in the support sole's frame, where the
    sole poses put them (each moved out by its toe-out's heel shift)."""
    stance = gen._hip_y + gen.gait.foot_spread
    lf, rf = gen.stride.end
    heel = gen._geometry.heel_shift
    left_pose = Pose2D(lf.x, lf.y + stance + heel(lf.yaw), lf.yaw)
    right_pose = Pose2D(rf.x, rf.y - stance - heel(rf.yaw), rf.yaw)
    swing, support = (left_pose, right_pose) if left else (right_pose, left_pose)
    return support.inverse().compose(swing)


def test_the_generator_places_each_planned_step_then_closes_the_feet():
    gait = attrs.evolve(load_gait(), catch_pitch=0.0)  # no balance step adjustment here
    gen = WalkGenerator(gait)
    steps = [
        PlannedStep(True, Pose2D(0.05, 0.11, 0.2), 0.25),
        PlannedStep(False, Pose2D(0.03, -0.12, -0.1), 0.3),
        PlannedStep(True, Pose2D(-0.02, 0.10, 0.0), 0.25),
    ]
    gen.steps.add(steps, clear=True)
    sense = Sense()
    planned_ends = []
    for _ in range(600):
        gen.update(0.012, sense)
        if gen.steps.current is not None and (
            not planned_ends or planned_ends[-1][0] is not gen.steps.current
        ):
            planned_ends.append((gen.steps.current, _relative(gen, gen.steps.current.left)))
        if gen.phase.value == "standing" and not gen.steps.pending:
            break
    assert [step for step, _ in planned_ends] == steps
    for step, end in planned_ends:
        assert end.x == pytest.approx(step.move.x, abs=1e-9)
        assert end.y == pytest.approx(step.move.y, abs=1e-9)
        assert end.theta == pytest.approx(step.move.theta, abs=1e-9)
    assert list(gen.steps.done) == steps
    assert gen.phase.value == "standing" and gen.left.together() and gen.right.together()


def test_footsteps_are_aimed_where_the_placement_correction_says():
    gen = WalkGenerator(attrs.evolve(load_gait(), catch_pitch=0.0))
    correction = PlacementCorrection()
    correction.error = (0.01, 0.015)  # landing 1 cm long and 1.5 cm wide
    gen.aim = correction.aim
    steps = [
        PlannedStep(True, Pose2D(0.04, 0.10, 0.2), 0.25),
        PlannedStep(False, Pose2D(0.04, -0.12, 0.0), 0.25),
    ]
    gen.steps.add(steps, clear=True)
    ends = {}
    for _ in range(200):
        gen.update(0.012, Sense())
        if gen.steps.current is not None:
            ends[gen.steps.current.left] = _relative(gen, gen.steps.current.left)
    assert ends[True].x == pytest.approx(0.03, abs=1e-9)
    assert ends[True].y == pytest.approx(0.085, abs=1e-9)  # aimed in, towards the support
    assert ends[False].y == pytest.approx(-0.105, abs=1e-9)
    assert ends[True].theta == pytest.approx(0.2, abs=1e-9)


@given(
    st.floats(-0.02, 0.02),
    st.floats(-0.02, 0.02),
    st.booleans(),
    st.lists(st.floats(-0.003, 0.003), min_size=80, max_size=80),
)
def test_the_placement_correction_learns_a_steady_landing_error(forward, outward, left, noise):
    correction = PlacementCorrection()
    side = 1.0 if left else -1.0
    asked = Pose2D(0.03, side * 0.1, 0.0)
    for n in noise:
        aimed = correction.aim(asked, left)
        landed = Pose2D(aimed.x + forward + n, aimed.y + side * (outward - n), 0.0)
        correction.learn(asked, landed, left)
    assert correction.error == pytest.approx((forward, outward), abs=0.004)
    # A slip of metres or a broken measurement teaches nothing.
    before = correction.error
    correction.learn(asked, Pose2D(float("nan"), 0.0, 0.0), left)
    correction.learn(asked, Pose2D(1.0, 0.0, 0.0), left)
    assert correction.error == before


def test_a_kill_drops_the_planned_steps():
    gen = WalkGenerator(load_gait())
    gen.steps.add([PlannedStep(i % 2 == 0, Pose2D(0.02, 0.1, 0.0), 0.25) for i in range(6)],
                      clear=True)  # fmt: skip
    for _ in range(40):
        gen.update(0.012, Sense())
    gen.kill()
    assert not gen.steps.pending
