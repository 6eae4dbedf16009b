"""The daemon's process settings."""

import gc

import pytest

from motiond.process_tuning import GC_THRESHOLD, request_realtime, tune_process


def test_realtime_priority_out_of_range_is_refused():
    with pytest.raises(ValueError, match=r"1\.\.99"):
        request_realtime(0)
    with pytest.raises(ValueError, match=r"1\.\.99"):
        request_realtime(100)


def test_tune_process_without_rt_sets_gc_and_leaves_scheduling(monkeypatch):
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "set_threshold", lambda *t: calls.append(t))
    assert tune_process(rt_priority=0) is False
    assert calls == ["freeze", GC_THRESHOLD]


def test_refused_realtime_returns_false(monkeypatch):
    import os

    def refuse(*_args):
        raise PermissionError("not permitted")

    monkeypatch.setattr(os, "sched_setscheduler", refuse)
    assert request_realtime(20) is False
