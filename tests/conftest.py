"""Shared test configuration: deterministic hypothesis runs."""

from hypothesis import HealthCheck, settings

# Derandomized so a run is reproducible; no per-example deadline (the machine is shared).
settings.register_profile(
    "motiond",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("motiond")
