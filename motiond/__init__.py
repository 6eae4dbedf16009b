"""motiond: the motion daemon application (runtime, behaviour API, command line, benchmarks).

``motiond.connect`` and ``motiond.connect_blocking`` are the behaviour API's clients
(``motiond.client``); they are imported on first use so that ``motiond --help`` stays instant.
"""

from typing import Any

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in ("connect", "connect_blocking", "ApiError"):
        import motiond.client

        return getattr(motiond.client, name)
    raise AttributeError(f"module 'motiond' has no attribute {name!r}")
