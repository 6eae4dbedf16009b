"""motiond: the motion daemon application (runtime, behaviour API, command line, benchmarks)."""

__version__ = "0.1.0"
