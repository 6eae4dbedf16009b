"""What the walk is asked for, made safe: the ellipsoid clamp and the per-step ratchet.

A request is a velocity (forward m/s, left m/s, turn rad/s). :func:`clamp_request` scales it
onto the gait's ellipsoid when it lies outside (rUNSWift and NAOqi: each axis normalised by its
limit; if the norm passes 1 all three shrink together, so a combined motion keeps its
direction). :func:`ratchet` moves the velocity the engine executes towards the clamped request
by at most the gait's change per step (rUNSWift's FORWARD_CHANGE; B-Human decelerates faster
than it accelerates, and so do we: stopping must be quick).
"""

from __future__ import annotations

import math

import attrs

from skills.walk.params import GaitParameters


@attrs.frozen
class Velocity:
    """A walk velocity in the robot frame: forward (m/s), left (m/s), turn (rad/s)."""

    forward: float = 0.0
    left: float = 0.0
    turn: float = 0.0

    @property
    def is_zero(self) -> bool:
        """Whether every component is zero."""
        return self.forward == 0.0 and self.left == 0.0 and self.turn == 0.0


ZERO = Velocity()


def turn_share(when_fast: float, forward_share: float, left_share: float) -> float:
    """The share of the turn limit left when walking forwards and sideways at these shares of
    their limits: ``when_fast`` at either's full speed (the shared hip yaw-pitch and the swing
    foot's reach cannot do both at once; a walk stepping 0.18 m/s sideways while turning
    1.4 rad/s fell on 3 of 12 NAOs). Walking backwards leaves the whole limit."""
    fastest = min(1.0, max(0.0, forward_share, abs(left_share)))
    return 1.0 - (1.0 - when_fast) * fastest


def turn_limit(gait: GaitParameters, forward: float, left: float = 0.0) -> float:
    """The turn limit at ``forward`` and ``left`` m/s: less turn when walking fast."""
    share = turn_share(gait.turn_when_fast, forward / gait.max_forward, left / gait.max_left)
    return gait.max_turn * share


def clamp_request(gait: GaitParameters, forward: float, left: float, turn: float) -> Velocity:
    """``(forward, left, turn)`` scaled onto the gait's ellipsoid if it lies outside."""
    fmax = gait.max_forward if forward >= 0.0 else gait.max_backward
    norm = math.sqrt(
        (forward / fmax) ** 2 + (left / gait.max_left) ** 2 + (turn / gait.max_turn) ** 2
    )
    if norm > 1.0:
        forward, left, turn = forward / norm, left / norm, turn / norm
    limit = turn_limit(gait, forward, left)
    turn = max(-limit, min(limit, turn))
    # Dividing may leave a component a hair past its limit; never let rounding exceed it.
    forward = max(-gait.max_backward, min(gait.max_forward, forward))
    left = max(-gait.max_left, min(gait.max_left, left))
    return Velocity(forward, left, turn)


def _towards(current: float, target: float, up: float, down: float) -> float:
    """``current`` moved towards ``target``: by at most ``up`` when speeding up (away from
    zero), at most ``down`` when slowing down."""
    if current * target < 0.0:
        # A sign change slows down to zero first.
        step = max(-down, min(down, -current))
        return current + step
    if abs(target) >= abs(current):
        return current + max(-up, min(up, target - current))
    return current + max(-down, min(down, target - current))


def ratchet(gait: GaitParameters, current: Velocity, target: Velocity) -> Velocity:
    """The velocity of the next step: ``current`` moved towards ``target`` by one step's
    allowed change on each axis."""
    forward = _towards(current.forward, target.forward, gait.forward_accel, gait.forward_decel)
    left = _towards(current.left, target.left, gait.left_accel, gait.left_accel * 2.0)
    turn = _towards(current.turn, target.turn, gait.turn_accel, gait.turn_accel * 2.0)
    return Velocity(forward, left, turn)
