"""Clients of the behaviour API: :func:`connect` (trio) and :func:`connect_blocking`.

Both have the same methods: ``emit``, ``withdraw``, ``get_state``, ``subscribe``/``states``,
``freeze``, and NAOqi's ALMotion verbs (``move``, ``move_to``, ``go_to_posture``, ...).
"""

from motiond.api.protocol import ApiError, default_api_path
from motiond.client.aio import Robot, connect
from motiond.client.blocking import BlockingRobot, connect_blocking

__all__ = ["ApiError", "BlockingRobot", "Robot", "connect", "connect_blocking", "default_api_path"]
