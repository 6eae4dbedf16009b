"""Balance feedback: the small rotations the walk adds to each leg from the IMU.

Returned as (hip pitch, hip roll) and (ankle pitch, ankle roll) offsets in rad, which
``skills.walk.soles`` turns into rotations of the sole target about the hip and the ankle.

- The **support** leg: the filtered gyro rates (pitch to ankle and hip pitch, roll to ankle
  and hip roll; rUNSWift and B-Human put theirs there), the torso's pitch error and roll,
  and the servo-sag compensation of the hip roll in single support.
- The ankle's **pitch gains are scheduled by forward speed**: from the in-place values
  (``gyro_pitch_ankle``, ``tilt_pitch_ankle``) to the ones at full forward speed (``..._forward``)
  in proportion to the forward share, as the lean and the centre-of-mass offset are; the
  pitch-rate gain also by the sideways share (a straight sideways walk at full speed takes
  the sprint's damping). Walking in
  place the torso's pitch error is what tips the robot over its toes, so the ankle follows it
  hard; at a sprint the body must pitch with every step and holding it stiffly made the walk
  slower and fall, while more gyro damping kept it up (docs/architecture.md, "Balance gains by
  speed").
- The **swing** leg: optionally levelled against the torso's tilt, so it lands flat.
"""

from __future__ import annotations

from skills.walk.params import GaitParameters, between

Offsets = tuple[tuple[float, float], tuple[float, float]]


def balance_offsets(
    gait: GaitParameters,
    *,
    support: bool,
    left: bool,
    single_support: float,
    gyro_x: float,
    gyro_y: float,
    roll: float,
    pitch_error: float,
    forward_share: float,
    sag: float,
    side_share: float = 0.0,
) -> Offsets:
    """((hip pitch, hip roll), (ankle pitch, ankle roll)) for one leg.

    ``single_support`` in [0, 1]: how far into single support the step is (a sine over the
    step); ``pitch_error``: the torso's pitch beyond the gait's lean (rad); ``forward_share``
    in [0, 1]: the forward speed over the gait's limit (0 walking in place or backwards);
    ``side_share`` in [0, 1]: how much of a straight sideways walk at full speed this is
    (``skills.walk.posture.sideways_share``).
    """
    g = gait
    if support:
        # Fast sideways steps pitch the body too: damped as at a sprint, perturbed NAOs no
        # longer tip over their toes or heels there (the torso's pitch error gain stays the
        # in-place one: at the sprint's, one tipped forwards more often, docs).
        fast = max(forward_share, side_share)
        gyro_pitch = between(g.gyro_pitch_ankle, g.gyro_pitch_ankle_forward, fast)
        tilt_pitch = between(g.tilt_pitch_ankle, g.tilt_pitch_ankle_forward, forward_share)
        ankle_pitch = gyro_pitch * gyro_y + tilt_pitch * pitch_error
        hip_pitch = g.gyro_pitch_hip * gyro_y + g.tilt_pitch_hip * pitch_error
        ankle_roll = g.gyro_roll_ankle * gyro_x + g.tilt_roll_ankle * roll
        hip_roll = g.gyro_roll_hip * gyro_x
        if single_support > 0.0:
            # The support hip's servo gives way under the body's weight and the torso tips
            # towards the swing foot: command the hip that much further.
            hip_roll += (1.0 if left else -1.0) * sag * single_support
        return (hip_pitch, hip_roll), (ankle_pitch, ankle_roll)
    if g.level_swing > 0.0:
        # Land flat: turn the swing sole against the torso's tilt, so it meets the floor level
        # however the body leans.
        return (0.0, 0.0), (-g.level_swing * pitch_error, -g.level_swing * roll)
    return (0.0, 0.0), (0.0, 0.0)
