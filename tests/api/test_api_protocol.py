"""The API's framing and its plain-data rules, and the task types a client may emit."""

from __future__ import annotations

import math

import msgpack
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from motiond.api.protocol import (
    MAX_MESSAGE,
    ApiError,
    FrameBuffer,
    ProtocolError,
    pack,
    plain,
    unpack_body,
)
from motiond.api.task_types import TASK_TYPES, task_type
from providers.actuation import Head, LookAt
from skills.script import Script
from skills.walk import KillWalk, Walk, WalkToward

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False),
    st.text(max_size=20),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_messages = st.fixed_dictionaries({"op": st.text(min_size=1, max_size=10)}, optional={"x": _values})


@given(st.lists(_messages, min_size=1, max_size=6), st.data())
def test_any_split_of_the_stream_gives_back_the_messages_in_order(messages, data):
    stream = b"".join(pack(m) for m in messages)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    buffer = FrameBuffer()
    out = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        buffer.feed(stream[start:end])
        while (body := buffer.next_body()) is not None:
            out.append(unpack_body(body))
    assert out == messages
    assert buffer.pending == 0


def test_an_oversize_frame_is_refused_from_its_length_alone():
    buffer = FrameBuffer()
    buffer.feed((MAX_MESSAGE + 1).to_bytes(4, "big") + b"\x00" * 10)
    with pytest.raises(ProtocolError, match="over the") as info:
        buffer.next_body()
    assert info.value.fatal


def test_a_truncated_frame_waits_for_the_rest():
    data = pack({"op": "ping", "id": 1})
    buffer = FrameBuffer()
    buffer.feed(data[:-1])
    assert buffer.next_body() is None
    buffer.feed(data[-1:])
    assert unpack_body(buffer.next_body()) == {"op": "ping", "id": 1}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"\xc1", "not a MessagePack"),  # never used byte
        (msgpack.packb([1, 2]), "must be a map"),
        (msgpack.packb({"id": 1}), '"op"'),
        (msgpack.packb({"op": 3}), '"op"'),
        (msgpack.packb({1: "x", "op": "ping"}), "not a MessagePack"),  # non-string key
        (msgpack.packb({"op": "emit", "f": msgpack.ExtType(1, b"x")}), "extension"),
        (msgpack.packb({"op": "x"}) + b"\x00", "not a MessagePack"),  # trailing bytes
    ],
)
def test_bodies_that_are_not_api_messages_are_refused(body, problem):
    with pytest.raises(ProtocolError, match=problem):
        unpack_body(body)


def test_plain_makes_numpy_tuples_and_non_finite_values_sendable():
    value = plain({"a": np.arange(3.0), "b": (np.float64(1.5), np.int64(2)), "c": math.nan})
    assert value == {"a": [0.0, 1.0, 2.0], "b": [1.5, 2], "c": None}
    with pytest.raises(TypeError):
        plain(object())


# ---------------------------------------------------------------------- task types


def test_the_emittable_types_are_the_documented_ones():
    assert {"Walk", "WalkToward", "KillWalk", "LookAt", "Script", "Head", "LeftArm"} <= set(
        TASK_TYPES
    )


@pytest.mark.parametrize(
    ("name", "fields", "expected"),
    [
        ("Walk", {"forward": 0.1, "turn": -0.2}, Walk(0.1, 0.0, -0.2)),
        ("WalkToward", {"x": 1, "frequency": 0.5}, WalkToward(1.0, frequency=0.5)),
        ("KillWalk", {}, KillWalk()),
        ("LookAt", {"point": [1.0, 0.0, 0.2], "camera": "bottom"}, None),
        ("Head", {"positions": {"HeadYaw": 0.3}, "duration": 0.5}, None),
        ("Script", {"name": "StandInit", "speed": 0.5}, None),
    ],
)
def test_types_build_the_same_task_as_in_process(name, fields, expected):
    task = task_type(name).make(fields)
    if expected is not None:
        assert task == expected
    assert isinstance(task, task_type(name).cls)
    if name == "Script":
        assert isinstance(task, Script) and task.speed == 0.5
    if name == "LookAt":
        assert isinstance(task, LookAt) and task.camera == "bottom"
    if name == "Head":
        assert isinstance(task, Head) and task.command.positions == {"HeadYaw": 0.3}


@pytest.mark.parametrize(
    ("name", "fields", "code", "text"),
    [
        ("Fly", {}, "unknown_type", "unknown task type 'Fly'"),
        ("Walk", {"speed": 1}, "bad_field", "unknown field(s) ['speed']"),
        ("Walk", {"forward": "fast"}, "bad_field", "must be a number"),
        ("Walk", {"forward": math.inf}, "bad_field", "finite"),
        ("Walk", {"forward": 99.0}, "bad_field", "within"),
        ("Walk", [1, 2], "bad_field", "fields must be a map"),
        ("Head", {}, "bad_field", "missing field(s) ['positions']"),
        ("Head", {"positions": {"LKneePitch": 0.1}}, "bad_field", "cannot move"),
        ("Head", {"positions": {"HeadYaw": 9.0}}, "bad_field", "HeadYaw"),
        ("Script", {}, "bad_field", "exactly one"),
        ("Script", {"name": "NoSuchScript"}, "bad_field", "no script 'NoSuchScript'"),
        ("Script", {"yaml": "- {duration: -1}"}, "bad_field", "targets: missing"),
        ("Script", {"yaml": "[unclosed"}, "bad_field", "malformed YAML"),
        ("LookAt", {"point": [1.0, "a", 0.0]}, "bad_field", "LookAt"),
    ],
)
def test_bad_emissions_are_refused_with_their_reason(name, fields, code, text):
    with pytest.raises(ApiError) as info:
        task_type(name).make(fields)
    assert info.value.code == code
    assert text in str(info.value)


def test_every_type_describes_its_fields():
    for name, kind in TASK_TYPES.items():
        described = kind.describe()
        assert set(described["fields"]) == {f.name for f in kind.fields}, name
        msgpack.packb(plain(described))  # sendable as it is
