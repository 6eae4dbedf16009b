"""Optional offscreen pictures of the simulation (``mujoco.Renderer``), saved as PNG files.

Rendering needs an OpenGL backend. On a machine without a display, EGL (GPU or Mesa) usually
works: :func:`prefer_headless_gl` asks for it before MuJoCo is imported. When no backend can
be opened, :func:`open_renderer` says why and returns ``None``; the simulation runs on.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import numpy as np

from lola_io.frames import ActuatorFrame, SensorFrame


def prefer_headless_gl() -> None:
    """Ask MuJoCo for EGL unless the user chose a backend (call before importing mujoco)."""
    if "DISPLAY" not in os.environ:
        os.environ.setdefault("MUJOCO_GL", "egl")


def write_png(path: str | Path, image: np.ndarray) -> None:
    """Write an (h, w, 3) uint8 RGB image as a PNG file (no imaging library needed)."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"write_png: expected an (h, w, 3) image, got shape {image.shape}")
    h, w, _ = image.shape
    # Each PNG row starts with its filter type (0: none).
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    Path(path).write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def open_renderer(model, width: int = 640, height: int = 480):
    """A ``mujoco.Renderer`` for ``model``, or ``None`` (with the reason printed) without GL."""
    import mujoco

    try:
        return mujoco.Renderer(model, height, width)
    except Exception as exc:  # every backend fails differently (ImportError, FatalError, ...)
        backend = os.environ.get("MUJOCO_GL", "default")
        print(f"naosim: rendering skipped, no OpenGL backend ({backend}): {exc}")
        return None


class RenderingBody:
    """Wraps a simulated body and saves a picture every ``every`` frames into ``directory``."""

    def __init__(self, body, directory: str | Path, *, every: int = 10, renderer=None) -> None:
        if every < 1:
            raise ValueError(f"render every must be >= 1 frame, got {every}")
        self.body = body
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.every = every
        self._renderer = renderer if renderer is not None else open_renderer(body.model)
        self._camera = None
        if self._renderer is not None:
            import mujoco

            # Follow the torso from the front-left, a little above, as a spectator would.
            self._camera = mujoco.MjvCamera()
            self._camera.type = mujoco.mjtCamera.mjCAMERA_TRACKING
            self._camera.trackbodyid = body.binding.torso_body
            self._camera.distance = 1.5
            self._camera.azimuth = 150.0
            self._camera.elevation = -15.0
        self._count = 0

    def first_frame(self) -> SensorFrame:
        """The wrapped body's first frame (and a first picture)."""
        frame = self.body.first_frame()
        self._snapshot()
        return frame

    def step(self, command: ActuatorFrame | None, dt: float) -> SensorFrame:
        """Step the wrapped body; every ``every`` frames save a picture."""
        frame = self.body.step(command, dt)
        self._count += 1
        if self._count % self.every == 0:
            self._snapshot()
        return frame

    def _snapshot(self) -> None:
        if self._renderer is None:
            return
        self._renderer.update_scene(self.body.data, camera=self._camera)
        write_png(self.directory / f"frame_{self._count:06d}.png", self._renderer.render())
