"""The wire format: byte-exact encoding, strict decoding, and the named error of every fault."""

from __future__ import annotations

import math

import msgpack
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lola_io import errors
from lola_io.codec import (
    ACTUATOR_FRAME_BYTES,
    ACTUATOR_KEYS,
    SENSOR_FRAME_BYTES,
    SENSOR_KEYS,
    decode_actuator,
    decode_sensor,
    encode_actuator,
    encode_sensor,
)
from lola_io.frames import ACTUATOR_LED_FIELDS, ActuatorFrame, SensorFrame
from lola_io.joints import LED_LENGTHS, NUM_JOINTS
from lola_io.maps import SENSOR_FLOATS, actuator_from_map, sensor_from_map

# Any value a float32 holds, extremes, subnormals and signed zeros included.
f32 = st.floats(width=32, allow_nan=False, allow_infinity=False)


@st.composite
def palettes(draw):
    """A few hypothesis-chosen float32 values and a seeded picker of them.

    Drawing ~200 floats one by one per frame made these tests take a minute; a palette keeps
    hypothesis in charge of the values (extremes included) at a fraction of the cost.
    """
    values = np.array(draw(st.lists(f32, min_size=1, max_size=6)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return lambda length: rng.choice(values, size=length)


@st.composite
def sensor_frames(draw) -> SensorFrame:
    pick = draw(palettes())
    fields = {field: pick(n) for field, n in SENSOR_FLOATS.values()}
    status = draw(st.lists(st.integers(0, 3), min_size=NUM_JOINTS, max_size=NUM_JOINTS))
    ident = st.text("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", min_size=20, max_size=20)
    version = st.sampled_from(["6.0.0", "2.8.5"])
    config = (draw(ident), draw(version), draw(ident), draw(version))
    return SensorFrame(**fields, status=status, robot_config=config)


@st.composite
def actuator_frames(draw, complete: bool | None = None) -> ActuatorFrame:
    pick = draw(palettes())
    fields = {"position": pick(NUM_JOINTS), "stiffness": pick(NUM_JOINTS)}
    for field, key in ACTUATOR_LED_FIELDS.items():
        if complete or (complete is None and draw(st.booleans())):
            fields[field] = pick(LED_LENGTHS[key])
    if complete or (complete is None and draw(st.booleans())):
        fields["sonar"] = (draw(st.booleans()), draw(st.booleans()))
    return ActuatorFrame(**fields)


def reference_sensor_bytes(frame: SensorFrame) -> bytes:
    """What the msgpack library itself writes for the robot's map (the independent reference)."""
    message = {}
    for key in SENSOR_KEYS:
        if key == "RobotConfig":
            message[key] = list(frame.robot_config)
        elif key == "Status":
            message[key] = frame.status.tolist()
        else:
            message[key] = getattr(frame, SENSOR_FLOATS[key][0]).tolist()
    return msgpack.packb(message, use_single_float=True)


def sensor_map(frame: SensorFrame) -> dict:
    return msgpack.unpackb(encode_sensor(frame))


# --------------------------------------------------------------------------------------------
# sizes and byte-exactness


def test_sensor_frame_is_896_bytes_with_map_header_0x8d():
    data = encode_sensor(SensorFrame.neutral())
    assert len(data) == SENSOR_FRAME_BYTES == 896
    assert data[0] == 0x8D
    position = data.index(b"\xa8Position")
    assert data[position + 9 : position + 13] == b"\xdc\x00\x19\xca"  # array16 of 25 float32s


def test_complete_actuator_frame_is_786_bytes():
    frame = ActuatorFrame.complete(np.zeros(NUM_JOINTS), np.ones(NUM_JOINTS))
    assert len(encode_actuator(frame)) == ACTUATOR_FRAME_BYTES == 786


def test_partial_actuator_frame_carries_only_its_keys():
    data = encode_actuator(ActuatorFrame.limp(np.zeros(NUM_JOINTS)))
    assert set(msgpack.unpackb(data)) == {"Position", "Stiffness"}
    assert len(data) == 276


@given(sensor_frames())
def test_sensor_encoding_matches_msgpack_byte_for_byte(frame):
    assert encode_sensor(frame) == reference_sensor_bytes(frame)


@given(actuator_frames())
def test_actuator_encoding_matches_msgpack_byte_for_byte(frame):
    message = msgpack.unpackb(encode_actuator(frame))
    assert list(message) == [key for key in ACTUATOR_KEYS if key in message]
    assert encode_actuator(frame) == msgpack.packb(message, use_single_float=True)


# --------------------------------------------------------------------------------------------
# round trips


@given(sensor_frames())
def test_sensor_round_trip_is_exact_for_float32_values(frame):
    assert decode_sensor(encode_sensor(frame)) == frame


@given(actuator_frames())
def test_actuator_round_trip_is_exact_for_float32_values(frame):
    assert decode_actuator(encode_actuator(frame)) == frame


@given(st.lists(st.floats(-1e30, 1e30), min_size=NUM_JOINTS, max_size=NUM_JOINTS))
def test_float64_values_round_trip_to_float32_precision(values):
    position = np.array(values)
    frame = ActuatorFrame.limp(position)
    decoded = decode_actuator(encode_actuator(frame))
    assert np.array_equal(decoded.position, position.astype(np.float32).astype(np.float64))


@given(sensor_frames())
def test_fast_path_and_generic_path_decode_alike(frame):
    data = encode_sensor(frame)
    assert decode_sensor(data) == sensor_from_map(msgpack.unpackb(data))
    command = ActuatorFrame.complete(frame.position, frame.stiffness)
    wire = encode_actuator(command)
    assert decode_actuator(wire) == actuator_from_map(msgpack.unpackb(wire)) == command


@given(sensor_frames(), st.randoms(use_true_random=False))
def test_sensor_keys_in_any_order_decode_the_same(frame, rnd):
    message = sensor_map(frame)
    keys = list(message)
    rnd.shuffle(keys)
    shuffled = msgpack.packb({k: message[k] for k in keys}, use_single_float=True)
    assert decode_sensor(shuffled) == frame


@given(actuator_frames(complete=True), st.randoms(use_true_random=False))
def test_actuator_keys_in_any_order_decode_the_same(frame, rnd):
    message = msgpack.unpackb(encode_actuator(frame))
    keys = list(message)
    rnd.shuffle(keys)
    shuffled = msgpack.packb({k: message[k] for k in keys}, use_single_float=True)
    assert decode_actuator(shuffled) == frame


def test_float64_and_integer_values_from_other_peers_are_accepted():
    message = sensor_map(SensorFrame.neutral())
    message["Position"] = [1] * 25  # ints where floats belong: numbers all the same
    message["Accelerometer"] = [0.0, 0.0, -9.81]
    data = msgpack.packb(message, use_single_float=False)  # float64 (0xcb) everywhere
    frame = decode_sensor(data)
    assert frame.position.tolist() == [1.0] * 25
    assert frame.accelerometer[2] == -9.81  # float64 carried exactly


# --------------------------------------------------------------------------------------------
# faults: each raises its named error, naming the key


def mutated(key: str, value) -> bytes:
    message = sensor_map(SensorFrame.neutral())
    message[key] = value
    return msgpack.packb(message, use_single_float=True)


@pytest.mark.parametrize("key", SENSOR_KEYS)
def test_missing_sensor_key(key):
    message = sensor_map(SensorFrame.neutral())
    del message[key]
    with pytest.raises(errors.MissingKeyError) as info:
        decode_sensor(msgpack.packb(message, use_single_float=True))
    assert info.value.key == key
    assert key in str(info.value)


@pytest.mark.parametrize(
    ("key", "value", "error"),
    [
        ("Position", [0.0] * 24, errors.WrongLengthError),
        ("Touch", [0.0] * 15, errors.WrongLengthError),
        ("Status", [0] * 26, errors.WrongLengthError),
        ("RobotConfig", ["a", "b", "c"], errors.WrongLengthError),
        ("Position", "0.0", errors.WrongTypeError),
        ("Gyroscope", [0.0, "1.0", 0.0], errors.WrongTypeError),
        ("Gyroscope", [0.0, None, 0.0], errors.WrongTypeError),
        ("Gyroscope", [0.0, True, 0.0], errors.WrongTypeError),
        ("Accelerometer", {"x": 0.0}, errors.WrongTypeError),
        ("Status", [0.0] * 25, errors.WrongTypeError),
        ("RobotConfig", [1, 2, 3, 4], errors.WrongTypeError),
        ("Position", [0.0] * 24 + [math.nan], errors.NonFiniteError),
        ("Angles", [math.inf, 0.0], errors.NonFiniteError),
        ("Battery", [0.0, -math.inf, 0.0, 0.0], errors.NonFiniteError),
        ("Status", [0] * 24 + [-1], errors.OutOfRangeError),
    ],
)
def test_bad_sensor_values(key, value, error):
    with pytest.raises(error) as info:
        decode_sensor(mutated(key, value))
    assert info.value.key == key
    assert isinstance(info.value, errors.LolaDecodeError)


def test_unknown_key_is_named():
    message = sensor_map(SensorFrame.neutral())
    message["Postion"] = message["Position"]
    with pytest.raises(errors.UnknownKeyError, match="Postion"):
        decode_sensor(msgpack.packb(message, use_single_float=True))


def test_trailing_garbage():
    with pytest.raises(errors.TrailingDataError, match="3 bytes"):
        decode_sensor(encode_sensor(SensorFrame.neutral()) + b"\x00\x01\x02")


@pytest.mark.parametrize(
    "data",
    [b"", b"\xc1", b"\x8d", encode_sensor(SensorFrame.neutral())[:500], b"\x81\x01\x02"],
    ids=["empty", "never-used byte", "bare header", "truncated", "int key"],
)
def test_not_msgpack(data):
    with pytest.raises(errors.MalformedFrameError):
        decode_sensor(data)


def test_not_a_map():
    with pytest.raises(errors.MalformedFrameError, match="expected a map, got an array"):
        decode_sensor(msgpack.packb([1, 2, 3]))


def test_actuator_faults():
    good = msgpack.unpackb(encode_actuator(ActuatorFrame.complete(np.zeros(25), np.ones(25))))
    del good["Stiffness"]
    with pytest.raises(errors.MissingKeyError, match="Stiffness"):
        decode_actuator(msgpack.packb(good))
    good["Stiffness"] = [1.0] * 25
    good["LEye"] = [0.0] * 23
    with pytest.raises(errors.WrongLengthError, match="LEye"):
        decode_actuator(msgpack.packb(good))
    good["LEye"] = [0.0] * 24
    good["Sonar"] = [1, 0]
    with pytest.raises(errors.WrongTypeError, match="Sonar"):
        decode_actuator(msgpack.packb(good))


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 1e39])
def test_encoding_refuses_what_float32_cannot_carry(bad):
    position = np.zeros(NUM_JOINTS)
    position[7] = bad
    with pytest.raises(errors.LolaEncodeError, match=r"'Position': value 7"):
        encode_actuator(ActuatorFrame.limp(position))
    with pytest.raises(errors.LolaEncodeError, match="'Position'"):
        encode_sensor(SensorFrame.neutral(position=position))


def test_encoding_refuses_status_beyond_a_fixint():
    frame = SensorFrame.neutral()
    frame.status[3] = 128
    with pytest.raises(errors.LolaEncodeError, match="Status"):
        encode_sensor(frame)


@pytest.mark.parametrize("sonar", [(1, 0), (True,), True, "on"])
def test_sonar_must_be_two_bools(sonar):
    with pytest.raises(ValueError, match="sonar"):
        ActuatorFrame(position=np.zeros(25), stiffness=np.zeros(25), sonar=sonar)
