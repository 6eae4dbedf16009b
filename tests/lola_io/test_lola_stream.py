"""Cutting a byte stream into frames: pieces, several frames per read, garbage, fuzz."""

from __future__ import annotations

import itertools

import msgpack
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lola_helpers import command, numbered

from lola_io.codec import encode_actuator, encode_sensor
from lola_io.errors import LolaDecodeError, NonFiniteError
from lola_io.frames import SensorFrame
from lola_io.stream import actuator_reader, sensor_reader

FRAMES = [numbered(i) for i in range(4)]
WIRE = [encode_sensor(frame) for frame in FRAMES]


def drain(reader):
    """Every frame the reader can give now; decode errors are collected, not raised."""
    frames, failures = [], []
    for _ in range(100_000):  # a bound, so a reader that loops forever fails instead of hanging
        try:
            frame = reader.next_frame()
        except LolaDecodeError as exc:
            failures.append(exc)
            continue
        if frame is None:
            return frames, failures
        frames.append(frame)
    pytest.fail("reader did not come to rest")


@given(st.lists(st.integers(0, sum(map(len, WIRE))), max_size=40))
def test_frames_cut_anywhere_come_out_whole_and_in_order(cuts):
    stream = b"".join(WIRE)
    bounds = [0, *sorted(cuts), len(stream)]
    reader = sensor_reader()
    frames = []
    for start, end in itertools.pairwise(bounds):
        reader.feed(stream[start:end])
        frames += drain(reader)[0]
    assert frames == FRAMES
    assert reader.resyncs == 0 and reader.buffered == 0


def test_two_frames_in_one_read():
    reader = sensor_reader()
    reader.feed(WIRE[0] + WIRE[1])
    assert reader.next_frame() == FRAMES[0]
    assert reader.last_raw == WIRE[0]
    assert reader.next_frame() == FRAMES[1]
    assert reader.next_frame() is None


def test_frames_in_another_key_order_are_framed_too():
    message = msgpack.unpackb(WIRE[2])
    reordered = msgpack.packb(dict(reversed(message.items())), use_single_float=True)
    reader = sensor_reader()
    reader.feed(reordered + WIRE[3])
    assert drain(reader)[0] == [FRAMES[2], FRAMES[3]]


def test_an_invalid_frame_is_consumed_and_named_then_the_next_is_read():
    bad = SensorFrame.neutral()
    message = msgpack.unpackb(encode_sensor(bad))
    message["Gyroscope"] = [0.0, float("nan"), 0.0]
    reader = sensor_reader()
    reader.feed(msgpack.packb(message, use_single_float=True) + WIRE[1])
    with pytest.raises(NonFiniteError, match="Gyroscope"):
        reader.next_frame()
    assert reader.next_frame() == FRAMES[1]
    assert reader.resyncs == 0


def test_garbage_between_frames_costs_one_resync():
    reader = sensor_reader()
    reader.feed(WIRE[0] + b"\x00garbage\x8d\x01" + WIRE[1][:300] + WIRE[2])
    frames, _ = drain(reader)
    assert frames == [FRAMES[0], FRAMES[2]]  # the cut-off frame is lost, nothing else
    assert reader.resyncs == 1
    assert reader.bytes_skipped > 0


def test_garbage_claiming_a_huge_array_does_not_stall_the_stream():
    reader = sensor_reader()
    reader.feed(b"\x8d\xa8Position\xdc\xff\xff" + WIRE[0])
    assert reader.next_frame() == FRAMES[0]


@given(st.binary(max_size=2000))
def test_fuzz_only_named_errors_escape_and_the_next_valid_frame_is_read(garbage):
    reader = sensor_reader()
    reader.feed(garbage + WIRE[1] + WIRE[2])
    frames, failures = drain(reader)  # anything but LolaDecodeError propagates and fails
    assert all(isinstance(f, LolaDecodeError) for f in failures)
    assert frames[-2:] == [FRAMES[1], FRAMES[2]]


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_fuzz_garbage_inside_a_stream_of_frames(before, inside):
    reader = sensor_reader()
    reader.feed(before + WIRE[0] + inside + WIRE[1])
    frames, _ = drain(reader)
    assert frames[-1] == FRAMES[1]
    assert FRAMES[0] in frames


def test_actuator_stream_partial_and_complete_frames():
    partial = command(0.25)
    partial = type(partial)(position=partial.position, stiffness=partial.stiffness)
    full = command(-0.5)
    reader = actuator_reader()
    wire = encode_actuator(partial) + encode_actuator(full)
    for chunk in (wire[:300], wire[300:]):
        reader.feed(chunk)
    frames, failures = drain(reader)
    assert frames == [partial, full] and not failures
    assert np.all(frames[1].position == -0.5)
