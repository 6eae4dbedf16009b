"""ALMotion's footstep clipping: where a footstep may land.

A footstep is where a foot lands, as NAOqi has it: the pose (x, y, theta) of the stepping
foot in the frame of the other foot, when it lands. A nominal step in place of the left foot
is (0, 0.1, 0): the left foot beside the right one, 0.1 m to its left.

Every step is clipped as ALMotion's planner clips it, in ALMotion's order, with the extremal
values of its gait table (ALMotion documents that the clipping uses those, not the move
config's):

1. **gait limits**: x within [-0.040, 0.080] m, |y| within [0.088, 0.160] m on the stepping
   foot's own side, |theta| within 0.524 rad;
2. **ellipse**: beyond the minimum separation, (x, y) must lie inside the ellipse of
   half-axes (0.080 or 0.040, 0.160 - 0.088); outside, it is moved onto the ellipse along its
   ray from the centre (libalmath's ``clipFootWithEllipse``);
3. **foot collision**: with NAOqi's foot boxes (0.11 m ahead of the ankle, 0.047 m behind,
   0.038 m inner, 0.050 m outer), a stepping foot that would overlap the standing one keeps
   its position and turns less: the largest share of theta found by five bisections between
   0 and theta that is free (libalmath's ``avoidFootCollision``).
"""

from __future__ import annotations

import math

from skills.walk.odometry import Pose2D

#: ALMotion's extremal gait values used for clipping (m, rad).
MAX_STEP_X = 0.080
MIN_STEP_X = -0.040
MAX_STEP_Y = 0.160
MIN_FOOT_SEPARATION = 0.088
MAX_STEP_THETA = 0.524
#: A convex quadrilateral: its corners in order (clockwise, as NAOqi lists them).
Box = tuple[tuple[float, float], ...]
#: NAOqi's foot boxes (x forward, y left, ankle frame), corners in order around the box.
LEFT_FOOT_BOX = ((0.11, 0.050), (0.11, -0.038), (-0.047, -0.038), (-0.047, 0.050))
RIGHT_FOOT_BOX = ((0.11, 0.038), (0.11, -0.050), (-0.047, -0.050), (-0.047, 0.038))
_BISECTIONS = 5


def clip_on_gait(move: Pose2D, left_support: bool) -> Pose2D:
    """Clip 1: the step within the gait's extremal values (``left_support``: the right foot
    steps, so its y is negative)."""
    x = min(max(move.x, MIN_STEP_X), MAX_STEP_X)
    if left_support:
        y = min(max(move.y, -MAX_STEP_Y), -MIN_FOOT_SEPARATION)
    else:
        y = min(max(move.y, MIN_FOOT_SEPARATION), MAX_STEP_Y)
    theta = min(max(move.theta, -MAX_STEP_THETA), MAX_STEP_THETA)
    return Pose2D(x, y, theta)


def clip_to_ellipse(a: float, b: float, x: float, y: float) -> tuple[float, float]:
    """(x, y) moved radially onto the ellipse of half-axes |a|, |b| if it lies outside."""
    a, b = abs(a), abs(b)
    if (x * x) / (a * a) + (y * y) / (b * b) < 1.00001:
        return x, y
    angle = math.atan2(y, x)
    c, s = math.cos(angle), math.sin(angle)
    t = a * b / math.sqrt(b * b * c * c + a * a * s * s)
    return t * c, t * s


def clip_with_ellipse(move: Pose2D) -> Pose2D:
    """Clip 2: beyond the minimum separation, (x, y) inside the step ellipse."""
    y = move.y
    if y < -MIN_FOOT_SEPARATION:
        y += MIN_FOOT_SEPARATION
    elif y > MIN_FOOT_SEPARATION:
        y -= MIN_FOOT_SEPARATION
    else:
        return move
    reach_x = MAX_STEP_X if move.x >= 0.0 else MIN_STEP_X
    x, y = clip_to_ellipse(reach_x, MAX_STEP_Y - MIN_FOOT_SEPARATION, move.x, y)
    y = y + MIN_FOOT_SEPARATION if y >= 0.0 else y - MIN_FOOT_SEPARATION
    return Pose2D(x, y, move.theta)


def boxes_collide(a: Box, b: Box) -> bool:
    """Whether two convex quadrilaterals (corners in order) overlap: an edge of one crosses an
    edge of the other, or one lies inside the other."""
    n, m = len(a), len(b)
    for i in range(n):
        for j in range(m):
            if _segments_cross(a[i], a[(i + 1) % n], b[j], b[(j + 1) % m]):
                return True
    return _inside(a, b[0]) or _inside(b, a[0])


def moved_box(box: Box, pose: Pose2D) -> Box:
    """The corners of ``box`` placed at ``pose``."""
    c, s = math.cos(pose.theta), math.sin(pose.theta)
    return tuple((pose.x + c * x - s * y, pose.y + s * x + c * y) for x, y in box)


def avoid_collision(
    move: Pose2D,
    left_support: bool,
    left_box: Box = LEFT_FOOT_BOX,
    right_box: Box = RIGHT_FOOT_BOX,
) -> Pose2D:
    """Clip 3: a stepping foot that would overlap the standing one turns less (the largest
    free share of theta found by bisection; 0 if none is found)."""
    fixed, moving = (left_box, right_box) if left_support else (right_box, left_box)
    if not boxes_collide(fixed, moved_box(moving, move)):
        return move
    low, high, best = 0.0, move.theta, 0.0
    for _ in range(_BISECTIONS):
        middle = 0.5 * (low + high)
        if boxes_collide(fixed, moved_box(moving, Pose2D(move.x, move.y, middle))):
            high = middle
        else:
            best = low = middle
    return Pose2D(move.x, move.y, best)


def clip_footstep(move: Pose2D, left_support: bool) -> Pose2D:
    """The three clips of ALMotion's planner, in its order."""
    move = clip_on_gait(move, left_support)
    move = clip_with_ellipse(move)
    return avoid_collision(move, left_support)


def _segments_cross(p1, p2, q1, q2) -> bool:
    gax, gay = p2[0] - p1[0], p2[1] - p1[1]
    gbx, gby = q2[0] - q1[0], q2[1] - q1[1]
    den = gbx * gay - gax * gby
    if abs(den) < 1e-12:
        return False  # parallel: touching along a side is not an overlap
    rb = (gay * (p1[0] - q1[0]) + gax * (q1[1] - p1[1])) / den
    if not 0.0 <= rb <= 1.0:
        return False
    ra = (q1[0] - p1[0] + rb * gbx) / gax if abs(gax) > 1e-12 else (q1[1] - p1[1] + rb * gby) / gay
    return 0.0 <= ra <= 1.0


def _inside(box, point) -> bool:
    """Whether ``point`` lies strictly inside ``box`` (corners clockwise, as NAOqi's)."""
    n = len(box)
    for i in range(n):
        (x0, y0), (x1, y1) = box[i], box[(i + 1) % n]
        if (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0) >= 0.0:
            return False
    return True


__all__ = [
    "LEFT_FOOT_BOX",
    "MAX_STEP_THETA",
    "MAX_STEP_X",
    "MAX_STEP_Y",
    "MIN_FOOT_SEPARATION",
    "MIN_STEP_X",
    "RIGHT_FOOT_BOX",
    "avoid_collision",
    "boxes_collide",
    "clip_footstep",
    "clip_on_gait",
    "clip_to_ellipse",
    "clip_with_ellipse",
    "moved_box",
]
