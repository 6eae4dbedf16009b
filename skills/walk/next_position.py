"""Where the walk will leave the robot: NAOqi's getNextRobotPosition, and where a stop would.

Both are robot positions (``LegOdometry.robot``: the middle of the feet, facing the body's
heading), from the support foot where the odometry has it on the floor:

- :func:`next_pose`: once the step under way, which can no longer change, has ended: halfway
  between the support foot and where the step lands the swing foot (:func:`swing_landing`).
- :func:`stop_pose`: once a stop asked now would have ended: that step, then the steps the
  stop still makes, slowing down and closing the feet, as their plan has them
  (``WalkGenerator.stop_steps``, a dry run of the walk's own stop).

Standing, both are the robot position now. They are plain functions of the generator, the
odometry and the landing model: nothing here changes the walk.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from skills.walk.odometry import LegOdometry, Pose2D, middle

if TYPE_CHECKING:
    from skills.walk.generator import WalkGenerator
    from skills.walk.landing import LandingModel


def _support_at_step_end(
    generator: WalkGenerator, odometry: LegOdometry
) -> tuple[Pose2D, Pose2D] | None:
    """The step under way's support foot on the floor (where the odometry has it) and seen
    from the body once the step ends (where the step's plan puts it); None standing."""
    planned, support = generator.support_end(), odometry.support
    if planned is None or support is None:
        return None
    left_support, foot = planned
    odometry_left, world = support
    if odometry_left != left_support:
        # Early in a step the odometry still stands on the foot that is about to swing (it
        # follows the load): the step's support foot is where the legs see it now.
        feet = odometry.feet
        here, there = feet[0 if odometry_left else 1], feet[0 if left_support else 1]
        world = world.compose(here.inverse().compose(there))
    return world, foot


def swing_landing(generator: WalkGenerator, landing: LandingModel) -> Pose2D:
    """Where the swing foot of the step under way lands, seen from its support sole: a
    footstep where it was asked (it is aimed against its error), a velocity step where its
    plan puts it, as ``landing`` corrects."""
    footstep = generator.steps.current
    if generator.placing and footstep is not None:
        return footstep.move
    left_support = not generator.swing_left
    return landing.predict(generator.swing_end(), generator.executed, left_support)


def next_pose(generator: WalkGenerator, odometry: LegOdometry, landing: LandingModel) -> Pose2D:
    """The robot position once the step under way has ended (module docstring)."""
    found = _support_at_step_end(generator, odometry)
    if found is None:
        return odometry.robot
    world, support = found
    body = world.compose(support.inverse())
    return body.compose(middle(support, support.compose(swing_landing(generator, landing))))


def stop_pose(generator: WalkGenerator, odometry: LegOdometry, landing: LandingModel) -> Pose2D:
    """The robot position once a stop asked now has ended (module docstring)."""
    found = _support_at_step_end(generator, odometry)
    steps = generator.stop_steps()
    if found is None or not steps:
        return odometry.robot
    world, support = found
    body = world.compose(support.inverse())
    feet = [(s.support, s.swing) for s in steps]
    feet[0] = (support, support.compose(swing_landing(generator, landing)))
    for (_, swing), (after, _) in itertools.pairwise(feet):
        # The swing sole ends a step where the next one is supported from.
        body = body.compose(swing).compose(after.inverse())
    return body.compose(middle(*feet[-1]))


__all__ = ["next_pose", "stop_pose", "swing_landing"]
