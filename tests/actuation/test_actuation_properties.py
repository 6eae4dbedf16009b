"""Property-based: random task mixes through the tree and the safety stage stay safe.

Random scripts (from random valid keyframes), group commands (positions anywhere finite, so
the safety stage has work to do), servo tasks, removals, priorities, Freeze and Unfreeze are
emitted between cycles. Every frame out of the safety stage must be within limits, finite,
no faster than the velocity limits, with stiffness in [0, 1]; and while a Freeze is in force,
every stiffness the tree asks for is 0 from the update after it was emitted.
"""

from __future__ import annotations

import numpy as np
from actuation_rig import PERIOD, Rig
from hypothesis import given
from hypothesis import strategies as st

from lola_io.joints import JOINT_NAMES, NUM_JOINTS
from motiond.safety import SafetyStage
from providers.actuation import GROUP_JOINTS, GROUP_TYPES, SERVO_TASKS, JointCommand
from providers.model import load_nao_model
from skills.freeze import FREEZE_PRIORITY, Freeze, Unfreeze
from skills.keyframes import JointTarget, Keyframe, KeyframeScript
from skills.script import Script

MODEL = load_nao_model()
LOWER = dict(zip(JOINT_NAMES, MODEL.lower, strict=True))
UPPER = dict(zip(JOINT_NAMES, MODEL.upper, strict=True))
EMITTERS = ("striker", "keeper", "head")
priorities = st.floats(0.0, 100.0)
durations = st.sampled_from([0.0, 0.012, 0.05, 0.1, 0.3])


@st.composite
def keyframes(draw) -> Keyframe:
    names = draw(st.sets(st.sampled_from(JOINT_NAMES), min_size=1, max_size=6))
    targets = {
        n: JointTarget(draw(st.floats(LOWER[n], UPPER[n])), draw(st.floats(0.0, 1.0)))
        for n in sorted(names)
    }
    return Keyframe(draw(durations), targets)


@st.composite
def scripts(draw) -> tuple:
    frames = draw(st.lists(keyframes(), min_size=1, max_size=3))
    script = KeyframeScript(name="random", frames=frames)
    speed = draw(st.sampled_from([0.5, 1.0, 3.0]))
    start = draw(st.one_of(st.none(), st.floats(0.0, 0.3)))
    return ("emit", Script(script, start_time=start, speed=speed), Script)


@st.composite
def group_commands(draw) -> tuple:
    group = draw(st.sampled_from(GROUP_TYPES))
    names = draw(st.sets(st.sampled_from(GROUP_JOINTS[group]), min_size=1, max_size=4))
    positions = {n: draw(st.floats(-4.0, 4.0)) for n in names}
    stiffness = draw(st.floats(0.0, 1.0))
    kind = draw(st.sampled_from(["linear", "minimum_jerk"]))
    return ("emit", group(JointCommand(positions, stiffness, draw(durations), kind)), group)


@st.composite
def servo_commands(draw) -> tuple:
    name = draw(st.sampled_from(JOINT_NAMES))
    task = SERVO_TASKS[name](draw(st.floats(-4.0, 4.0)), draw(st.floats(0.0, 1.0)), 0.0)
    return ("emit", task, SERVO_TASKS[name])


actions = st.one_of(
    st.tuples(
        st.one_of(scripts(), group_commands(), servo_commands()),
        priorities,
        st.sampled_from(EMITTERS),
    ),
    st.tuples(st.just(("remove", None, Script)), priorities, st.sampled_from(EMITTERS)),
    st.just(("freeze",)),
    st.just(("unfreeze",)),
    st.integers(1, 15),
)


@given(st.lists(actions, min_size=1, max_size=25), st.floats(-0.5, 0.5))
def test_random_task_mixes_never_give_an_unsafe_frame(plan, offset) -> None:
    initial = MODEL.clamp(np.full(NUM_JOINTS, offset))
    rig = Rig(initial, follow=False)
    safety = SafetyStage(MODEL)
    safety.reset(initial)
    step = MODEL.velocity * PERIOD
    body = {"measured": initial.copy(), "frozen": False}

    def cycle() -> None:
        measured = body["measured"]
        limp = safety.stiffness == 0.0
        last = safety.position.copy()
        position, stiffness = rig.step()
        if body["frozen"]:
            assert np.all(stiffness == 0.0)
        safe_position, safe_stiffness = safety.apply(position, stiffness, measured=measured)
        assert np.all(np.isfinite(safe_position)) and np.all(np.isfinite(safe_stiffness))
        assert np.all(safe_position >= MODEL.lower) and np.all(safe_position <= MODEL.upper)
        assert np.all(safe_stiffness >= 0.0) and np.all(safe_stiffness <= 1.0)
        # A joint limp in the last frame moves from where it is measured (the stage follows
        # it); any other from the last frame sent.
        reference = np.where(limp, measured, last)
        assert np.all(np.abs(safe_position - reference) <= step * (1.0 + 1e-9) + 1e-15)
        # The body is a lagging servo: half-way to its target each cycle.
        body["measured"] = measured + 0.5 * (safe_position - measured)

    for action in plan:
        if isinstance(action, int):
            for _ in range(action):
                cycle()
        elif action[0] == "freeze":
            # Limp from the next update on, whatever else is emitted (an Unfreeze emitted
            # earlier in the same update is applied before it: call order).
            rig.emit(Freeze(), priority=FREEZE_PRIORITY, emitter="safety")
            body["frozen"] = True
        elif action[0] == "unfreeze":
            rig.emit(Unfreeze(), emitter="button")
            body["frozen"] = False
        else:
            (kind, task, task_type), priority, emitter = action
            if kind == "emit":
                rig.emit(task, priority=priority, emitter=emitter)
            else:
                rig.emitter(emitter).emit_none(task_type)
    cycle()
