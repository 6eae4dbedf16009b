"""What the walk is asked for, made safe: the ellipsoid clamp and the per-step ratchet.

A request is a velocity (forward m/s, left m/s, turn rad/s). :func:`clamp_request` scales it
onto the gait's ellipsoid when it lies outside (rUNSWift and NAOqi: each axis normalised by its
limit; if the norm passes 1 all three shrink together, so a combined motion keeps its
direction; walking backwards, a diamond). :func:`ratchet` moves the velocity the engine
executes towards the clamped request by at most the gait's change per step (rUNSWift's
FORWARD_CHANGE; B-Human decelerates faster than it accelerates, and so do we: stopping must be
quick; slowing down to walk on in another direction is gentler, as HTWK's is).
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
    return Limits.from_gait(gait).turn_at(forward, left)


@attrs.frozen
class Limits:
    """Speed limits (m/s, m/s, m/s, rad/s) and the share of the turn left at full speed."""

    forward: float
    backward: float
    left: float
    turn: float
    turn_when_fast: float = 1.0

    @classmethod
    def from_gait(cls, gait: GaitParameters, speed: float = 1.0) -> Limits:
        """The gait's limits, the speeds each times ``speed`` in (0, 1]."""
        g = gait
        top = (g.max_forward, g.max_backward, g.max_left, g.max_turn)
        return cls(*(limit * speed for limit in top), g.turn_when_fast)

    def turn_at(self, forward: float, left: float) -> float:
        """The turn limit (rad/s) at ``forward`` and ``left`` m/s (:func:`turn_share`)."""
        return self.turn * turn_share(self.turn_when_fast, forward / self.forward, left / self.left)


def clamp_velocity(limits: Limits, forward: float, left: float, turn: float) -> Velocity:
    """``(forward, left, turn)`` scaled onto the limits' ellipsoid if it lies outside; walking
    backwards, onto their diamond (the axes' shares add up to at most 1: backward walks that
    also stepped sideways or turned were most of the falls under random requests, 18 of 101
    runs with the ellipsoid at 0.35 m/s backwards, 11 with the diamond); then the turn left at
    speed (:func:`turn_share`)."""
    lim = limits
    fmax = lim.forward if forward >= 0.0 else lim.backward
    shares = (abs(forward) / fmax, abs(left) / lim.left, abs(turn) / lim.turn)
    norm = sum(shares) if forward < 0.0 else math.sqrt(sum(x * x for x in shares))
    if norm > 1.0:
        forward, left, turn = forward / norm, left / norm, turn / norm
    top = lim.turn_at(forward, left)
    # Dividing may leave a component a hair past its limit; never let rounding exceed it.
    return Velocity(
        max(-lim.backward, min(lim.forward, forward)),
        max(-lim.left, min(lim.left, left)),
        max(-top, min(top, turn)),
    )


def clamp_request(gait: GaitParameters, forward: float, left: float, turn: float) -> Velocity:
    """``(forward, left, turn)`` clamped to the gait's limits (:func:`clamp_velocity`)."""
    return clamp_velocity(Limits.from_gait(gait), forward, left, turn)


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
    allowed change on each axis.

    Forwards, a stop (a zero target: the feet close and the stand takes the body's
    momentum) slows by ``forward_decel`` a step; a walk that slows down to go on elsewhere (a
    reversal, a step aside, a turn) by ``redirect_decel`` at most, because its next steps must
    still carry a body that keeps its momentum (``gait.yaml`` has the falls it cost)."""
    decel = gait.forward_decel
    if not target.is_zero:
        decel = min(decel, gait.redirect_decel)
    forward = _towards(current.forward, target.forward, gait.forward_accel, decel)
    left = _towards(current.left, target.left, gait.left_accel, gait.left_accel * 2.0)
    turn = _towards(current.turn, target.turn, gait.turn_accel, gait.turn_accel * 2.0)
    return Velocity(forward, left, turn)


def step_velocity(
    gait: GaitParameters,
    current: Velocity,
    target: Velocity,
    lean: float,
    lean_mean: float,
    pitch_rate: float = 0.0,
    *,
    catch: bool = True,
) -> Velocity:
    """The velocity of the next step: :func:`ratchet`, then the balance guards. ``lean`` is the
    torso's pitch past the gait's lean now (rad, + forwards), ``lean_mean`` the same averaged
    over about a step, ``pitch_rate`` the torso's pitch rate (rad/s, + forwards, filtered);
    ``catch``: whether a backward fall may be caught now.

    - Leaning back past ``slow_lean`` (averaged) a forward walk slows by ``slow_decel`` a step:
      the legs are outrunning the body, which drifts further back step by step at a sprint on
      weak bodies until it falls. The speed shrinks until the body has caught up.
    - Leaning forwards past ``fast_lean`` (averaged), walking forwards at ``fast_lean_share``
      of the limit or faster, it slows the same way: the body is falling forwards ahead of
      its steps, a little further each step (B-Human's walk slows when it keeps adjusting its
      steps for the same reason).
    - Walking forwards, at most ``back_catch_share`` of the limit and asked to go on forwards,
      leaning back past ``back_catch_lean`` and pitching back faster than
      ``back_catch_rate`` (or leaning back past ``back_catch_deep``, at any rate), the body
      is falling backwards (a push from the front): the step goes backwards at
      ``back_catch_speed`` (at most the gait's limit), and the ratchet walks on from there.
    - Leaning forwards ``back_step_lean`` past the gait's lean the body is falling forwards
      (walking, it leans up to 0.2 rad past it, turning fast on the spot): a backward step
      would pull the feet from under it, so the backward speed shrinks instead, at a stop's
      rate.
    """
    v = ratchet(gait, current, target)
    back = min(gait.back_catch_speed, gait.max_backward)
    deep = lean < -gait.back_catch_deep
    falling_back = lean < -gait.back_catch_lean and (pitch_rate < -gait.back_catch_rate or deep)
    slow = 0.0 < current.forward <= gait.back_catch_share * gait.max_forward
    if catch and falling_back and slow and target.forward > 0.0:
        # Walking forwards and falling backwards (pushed from the front): step back under
        # the body. The lean alone does not tell a fall from a sprint's slow drift back; the
        # rate does. Not on the spot, nor slowing to stop or walk backwards (the ratchet's own
        # steps; such catches fell forwards on weak bodies), nor faster than
        # ``back_catch_share`` of the limit (turning fast, the torso pitches back as fast at a
        # step's start without falling).
        return Velocity(-back, v.left, v.turn)
    fast = current.forward >= gait.fast_lean_share * gait.max_forward
    if v.forward > 0.0 and (lean_mean < -gait.slow_lean or (fast and lean_mean > gait.fast_lean)):
        slower = min(v.forward, max(0.0, current.forward - gait.slow_decel))
        v = Velocity(slower, v.left, v.turn)
    if v.forward < 0.0 and lean > gait.back_step_lean:
        v = Velocity(min(0.0, v.forward + gait.forward_decel), v.left, v.turn)
    return v
