"""Which parts of motiond exist yet (what ``motiond demo`` says until it can walk)."""

from __future__ import annotations

import importlib.util

#: part → module whose presence means the part is in.
PARTS = {
    "director (arbitration engine)": "director.engine",
    "lola_io (wire format, connection, server)": "lola_io.codec",
    "robot model and kinematics": "providers.model.kinematics",
    "naosim (MuJoCo NAO behind LoLA)": "naosim.body",
    "actuation tree, scripts and the daemon cycle": "motiond.runtime",
}


def report() -> str:
    """A short table of ready and pending parts."""
    lines = ["motiond demo: the full demo (stand, walk, report) needs every part below."]
    for part, module in PARTS.items():
        ready = importlib.util.find_spec(module) is not None
        lines.append(f"  [{'ready' if ready else 'pending'}] {part}")
    return "\n".join(lines)
