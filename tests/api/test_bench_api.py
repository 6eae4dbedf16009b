"""``motiond bench api``'s processes, small: the figures are measured, not assumed."""

from __future__ import annotations

from motiond.bench.api import measure


def test_a_small_run_measures_every_figure():
    daemon, clients = measure(clients=4, seconds=2.0, processes=2)
    assert daemon["clients"] == 4  # all connected when the window opened
    assert daemon["cycles"] > 100  # 2 s of a real-time robot (166 cycles)
    # The probe emits at 10 Hz; each Head command shows in the very next frame (the Director
    # applies what was queued between cycles in the next update).
    assert len(daemon["effect_cycles"]) >= 10
    assert set(daemon["effect_cycles"]) == {1}
    assert clients["states"] > 4 * 100 and clients["emits"] >= 4 * 10
    assert all(0.0 < x < 1000.0 for x in clients["latencies_ms"])
    assert daemon["publish_ms"] and 10 < daemon["rss_mb"] < 1000
