"""The shared data pieces: joint order, frames, and the packaged robot model."""

import numpy as np
import pytest

from lola_io.frames import ActuatorFrame, SensorFrame
from lola_io.joints import JOINT_INDEX, JOINT_NAMES, NUM_JOINTS
from providers.model import load_nao_model


def test_joint_order_is_lolas():
    assert NUM_JOINTS == 25
    assert JOINT_NAMES[0] == "HeadYaw"
    assert JOINT_INDEX["LHipYawPitch"] == 7
    assert JOINT_INDEX["RHipRoll"] == 13
    assert JOINT_NAMES[-2:] == ("LHand", "RHand")
    assert "RHipYawPitch" not in JOINT_INDEX


def test_sensor_frame_rejects_wrong_lengths():
    with pytest.raises(ValueError, match="position"):
        SensorFrame.neutral(position=np.zeros(24))


def test_actuator_frame_partial_and_complete():
    partial = ActuatorFrame.limp(np.zeros(NUM_JOINTS))
    assert not partial.is_complete
    assert not partial.stiffness.any()
    complete = ActuatorFrame.complete(np.zeros(NUM_JOINTS), np.ones(NUM_JOINTS))
    assert complete.is_complete
    with pytest.raises(ValueError, match="l_eye"):
        ActuatorFrame(position=np.zeros(25), stiffness=np.zeros(25), l_eye=np.zeros(8))


def test_model_has_every_lola_joint_with_limits():
    model = load_nao_model()
    assert model.lower.shape == model.upper.shape == (NUM_JOINTS,)
    assert np.all(model.lower < model.upper)
    assert np.all(model.velocity > 0)
    assert model.joints["RHipYawPitch"].mimic == "LHipYawPitch"
    assert 5.0 < model.total_mass < 5.6
    assert model.foot.sole_height == pytest.approx(0.04519)
