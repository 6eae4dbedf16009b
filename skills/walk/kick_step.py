"""In-walk kicks: a step of the walk whose swing goes through the ball (the in-walk kicks of
B-Human and HTWK, in their simplest form).

A kick request (:class:`KickStep`) rides on the walk while the behaviour walks towards the
ball; the engine keeps the ball's position from each sole current (odometry). At the start
of every step the generator asks :func:`shape_step` what this step should be:

- **the kick step**, when the swing foot is the kicking foot and the ball lies in its path:
  the step is as long as it takes for the swing to be at mid-stride (its fastest, the sole
  lifted to ``contact_height``) as its front reaches the ball (at most ``max_length``: a
  ball further than that puts it is met a little after mid-stride), and its period is
  ``period_share`` of the gait's;
- **the placing step**, the step before: its length (from a share of the walk's own step to
  its longest) puts the support foot of the kick step where a kick step of the preferred
  length meets the ball; a ball further away is walked to with ordinary steps first. The
  placing step's reach and the kick step's together are wider than two steps of the walk, so
  a ball walked at comes in reach of one of them;
- an ordinary step otherwise.

A ball off the kicking foot's line by more than the kick takes (``max_offset``) is brought into
it by a sideways speed the walk adds to its request (:func:`line_up`), as a behaviour
steering at the ball would.

Feet frames here are the walk's: x forward along the foot, y left, both feet parallel.
"""

from __future__ import annotations

import math

import attrs

#: The ball's radius, m (SPL ball).
BALL_RADIUS = 0.05
#: The shortest step (share of the walk's own) the walk takes to line up a kick.
_SHORTEST = 0.4
#: A kick step at its longest meets a ball this far (m) short of its landing, or nearer.
_PAST_MID = 0.03
#: Steps over which the walk brings the kicking foot's line onto the ball (``line_up``).
LINE_UP_STEPS = 2.0
#: How much nearer (m) the other foot's line must be before a kick by either foot lines up
#: with it instead.
LINE_UP_SWITCH = 0.02
#: A ball nearer than mid-stride is still met before it, by the shortest kick step, while the
#: swing has covered at least this share of its travel there (the half-cosine swing then
#: moves at 0.8 of its top speed, the sole at 0.64 of its contact height).
_EARLIEST = 0.2


@attrs.define
class KickStep:
    """A kick the walk is to make with a step (its state, shared by the walk and the kick)."""

    #: The kicking foot: True left, False right, None whichever the ball is in line with.
    left: bool | None
    #: Share of the gait's step period the kick step takes (1: the gait's own period).
    period_share: float
    #: The kick step's preferred and longest length (m, from the support foot to where the
    #: swing foot lands).
    length: float
    max_length: float
    #: The shortest kick step the placing aims for (m).
    min_length: float
    #: Sole height at mid-stride, where the foot meets the ball (m).
    contact_height: float
    #: How far into the ball the swing is aimed (m).
    penetration: float
    #: Largest sideways offset (m) of the ball from the kicking foot's line.
    max_offset: float
    #: The most sideways speed (m/s) the walk adds to bring a ball further off than that
    #: into line (0: none).
    line_up_speed: float = 0.0
    #: The ball (x, y) from the left sole and from the right sole, m (set every cycle).
    ball: dict[bool, tuple[float, float]] = attrs.field(factory=dict)
    #: The foot the walk lines up with the ball (``line_up``), once it has begun.
    lining: bool | None = None
    #: The kick step has begun (it cannot be taken back), and has landed.
    made: bool = False
    landed: bool = False


def in_line(kick: KickStep, swing_left: bool, stance: float) -> bool:
    """Whether the ball lies in the path of ``swing_left``'s foot (seen from the other)."""
    if (kick.left is not None and kick.left != swing_left) or (not swing_left) not in kick.ball:
        return False
    _, y = kick.ball[not swing_left]
    line = (1.0 if swing_left else -1.0) * 2.0 * stance
    return abs(y - line) <= kick.max_offset


def line_up(kick: KickStep, stance: float, period: float, *, front: float) -> float:
    """The sideways speed (m/s, + left, at most ``kick.line_up_speed``) that brings the ball
    into the kicking foot's line over ``LINE_UP_STEPS`` steps of ``period`` s: its offset
    from the line that foot's kick step lands on (seen from the other sole, as
    :func:`in_line` sees it), less the ``max_offset`` the kick takes anyway; for a kick by
    either foot, the nearer foot's, which it records in ``kick.lining``. 0 once the kick step
    has begun, while the ball is not ahead, or in line; and 0 for a ball the next steps
    could reach (``front``: the sole's front from the ankle, m) further off the line than
    one step lines up."""
    if kick.made or not kick.ball or kick.line_up_speed <= 0.0:
        return 0.0
    offsets = {}
    for foot in (True, False) if kick.left is None else (kick.left,):
        if (not foot) in kick.ball:
            x, y = kick.ball[not foot]
            if x > 0.0:
                offsets[foot] = (x, y - (1.0 if foot else -1.0) * 2.0 * stance)
    if not offsets:
        return 0.0
    nearer = min(offsets, key=lambda f: abs(offsets[f][1]))
    kept = offsets.get(kick.lining) if kick.lining is not None else None
    if kept is None or abs(kept[1]) > abs(offsets[nearer][1]) + LINE_UP_SWITCH:
        # Either foot's: the nearer one, kept until the other is clearly nearer (the ball
        # between the feet, aiming at whichever was nearer each step walked the ball into
        # the middle).
        kick.lining = nearer
    x, off = offsets[kick.lining]
    if abs(off) <= kick.max_offset:
        return 0.0  # in line: sideways steps would only cost the kick step its length
    beyond = abs(off) - kick.max_offset
    if x - BALL_RADIUS < kick.max_length + front and beyond > kick.line_up_speed * period:
        # Within the next steps' reach, only what one step can line up is: moved sideways
        # further, the foot comes down beside the ball or on it (a ball 16 cm ahead and 13 cm
        # off the line, lined up at 0.35 m/s, had a foot land on it and the robot fell
        # backwards; docs, "The in-walk kick").
        return 0.0
    speed = math.copysign(beyond, off) / (LINE_UP_STEPS * period)
    return max(-kick.line_up_speed, min(kick.line_up_speed, speed))


def _reach(kick: KickStep, front: float) -> float:
    """How far behind the ball's centre the swing sole is when its front meets the ball."""
    return BALL_RADIUS - kick.penetration + front


def placing_length(
    kick: KickStep, swing_left: bool, front: float, length: float, longest: float
) -> float | None:
    """The length of the step before the kick (``swing_left`` lands as the kick's support)
    that gets the ball in reach of the kick step after it; None while the ball is too far
    for that. ``length``: the walk's own step now; ``longest``: its longest."""
    # Seen from the foot that will kick (it supports now), the ball is ``ahead`` of where the
    # swing sole meets it. The placing foot lands ``L`` ahead; the kick step then starts ``L``
    # behind it and meets the ball at mid-stride when its own length is 2 (ahead - L) + L.
    # L aims that at the preferred length, but is never cut below a share of the walk's step
    # (stopping short would throw the body forwards) nor made longer than its longest.
    x, _ = kick.ball[not swing_left]
    ahead = x - _reach(kick, front)
    longest = max(length, longest)
    if ahead - longest > kick.max_length - _PAST_MID:
        return None
    return min(max(2.0 * ahead - kick.length, _SHORTEST * length), longest)


def shape_step(
    kick: KickStep,
    swing_left: bool,
    *,
    behind: float,
    stance: float,
    front: float,
    step: tuple[float, float, float],
    step_period: float,
    longest: float,
) -> tuple[float, float, float, str | None]:
    """The step about to begin, shaped for ``kick``: (length, period, lift, role), role
    "kick" for the kick step, "placing" for the step before it, None for an ordinary step
    (``step``, the walk's own (length, period, lift), unchanged).

    ``behind``: how far the swing foot starts behind the support foot (m); ``stance``: each
    foot's place off the hip centre (m); ``front``: the sole's front ahead of the ankle (m);
    ``longest``: the walk's longest step (m).
    """
    length, period, lift = step
    if kick.made or not kick.ball:
        return length, period, lift, None
    if in_line(kick, swing_left, stance):
        ahead = kick.ball[not swing_left][0] - _reach(kick, front)
        # A swing from ``behind`` the support foot to ``length`` ahead of it is at
        # mid-stride, its fastest, at (length - behind) / 2: there it meets the ball. A ball
        # further than the longest kick step puts there is met a little after mid-stride.
        # A ball nearer than that (a step landed longer than planned) is still met, before
        # mid-stride, while the swing has gone far enough there to be fast: the further
        # behind it starts, the nearer the ball may be.
        earliest = _EARLIEST * (behind + kick.min_length) - behind
        if earliest <= ahead <= kick.max_length - _PAST_MID:
            kick_step = min(max(2.0 * ahead + behind, kick.min_length), kick.max_length)
            kick.made = True
            return kick_step, step_period * kick.period_share, kick.contact_height, "kick"
    kicker = not swing_left
    # The ball in line with the supporting foot (seen from that sole, or as its kick step
    # will see it, from this one: feet not quite a stance apart disagree by a centimetre or
    # two, and a ball in line by one view only got no placing step and was passed): land this
    # one where that foot's next swing meets it.
    own = abs(kick.ball.get(kicker, (0.0, 1.0))[1]) <= kick.max_offset
    if kick.left in (None, kicker) and (own or in_line(kick, kicker, stance)):
        placing = placing_length(kick, swing_left, front, length, longest)
        if placing is not None:
            return placing, period, lift, "placing"
    return length, period, lift, None
