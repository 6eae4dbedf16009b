"""Sensor and actuator frames: what one LoLA cycle carries, as numpy arrays in LoLA order.

Values are SI (rad, m/s^2, rad/s, A, degrees Celsius for temperatures as LoLA reports them,
kg for FSR cells as LoLA reports them). Arrays are float64 in memory; the wire carries float32.
Frames are frozen: a frame is a message, not a buffer to be edited in place by its readers.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs
import numpy as np

from lola_io.joints import (
    BATTERY_INDEX,
    FSR_INDEX,
    JOINT_INDEX,
    LED_LENGTHS,
    NUM_JOINTS,
    TOUCH_INDEX,
)

DEFAULT_ROBOT_CONFIG: tuple[str, str, str, str] = (
    "P0000074A04S8C700011",
    "6.0.0",
    "P0000073A07S92J00011",
    "6.0.0",
)


def _float_array(length: int):
    """An attrs converter+validator pair turning input into a float64 vector of ``length``."""

    def convert(value: Any) -> np.ndarray:
        return np.asarray(value, dtype=np.float64)

    def validate(instance: Any, attribute: attrs.Attribute, value: np.ndarray) -> None:
        if value.shape != (length,):
            raise ValueError(
                f"{type(instance).__name__}.{attribute.name}: expected {length} values, "
                f"got shape {value.shape}"
            )

    return attrs.field(converter=convert, validator=validate, eq=attrs.cmp_using(eq=np.array_equal))


def _optional_float_array(length: int):
    """Like :func:`_float_array` but ``None`` means "not sent" (a partial actuator frame)."""

    def convert(value: Any) -> np.ndarray | None:
        return None if value is None else np.asarray(value, dtype=np.float64)

    def validate(instance: Any, attribute: attrs.Attribute, value: np.ndarray | None) -> None:
        if value is not None and value.shape != (length,):
            raise ValueError(
                f"{type(instance).__name__}.{attribute.name}: expected {length} values, "
                f"got shape {value.shape}"
            )

    def eq(a: np.ndarray | None, b: np.ndarray | None) -> bool:
        if a is None or b is None:
            return a is b
        return bool(np.array_equal(a, b))

    return attrs.field(
        default=None, converter=convert, validator=validate, eq=attrs.cmp_using(eq=eq)
    )


def _zeros(length: int) -> np.ndarray:
    return np.zeros(length, dtype=np.float64)


@attrs.frozen
class SensorFrame:
    """One LoLA sensor message (robot → client)."""

    position: np.ndarray = _float_array(NUM_JOINTS)
    stiffness: np.ndarray = _float_array(NUM_JOINTS)
    temperature: np.ndarray = _float_array(NUM_JOINTS)
    current: np.ndarray = _float_array(NUM_JOINTS)
    status: np.ndarray = attrs.field(
        converter=lambda v: np.asarray(v, dtype=np.int64),
        eq=attrs.cmp_using(eq=np.array_equal),
    )
    battery: np.ndarray = _float_array(4)
    accelerometer: np.ndarray = _float_array(3)
    gyroscope: np.ndarray = _float_array(3)
    angles: np.ndarray = _float_array(2)
    sonar: np.ndarray = _float_array(2)
    fsr: np.ndarray = _float_array(8)
    touch: np.ndarray = _float_array(14)
    robot_config: tuple[str, str, str, str] = attrs.field(
        default=DEFAULT_ROBOT_CONFIG, converter=tuple
    )

    @status.validator
    def _check_status(self, attribute: attrs.Attribute, value: np.ndarray) -> None:
        if value.shape != (NUM_JOINTS,):
            raise ValueError(f"SensorFrame.status: expected {NUM_JOINTS} values, got {value.shape}")

    @robot_config.validator
    def _check_config(self, attribute: attrs.Attribute, value: tuple) -> None:
        if len(value) != 4 or not all(isinstance(s, str) for s in value):
            raise ValueError("SensorFrame.robot_config: expected 4 strings")

    @classmethod
    def neutral(cls, position: np.ndarray | None = None) -> SensorFrame:
        """A plausible frame of a robot at rest (upright IMU, cool joints, full battery)."""
        return cls(
            position=_zeros(NUM_JOINTS) if position is None else position,
            stiffness=_zeros(NUM_JOINTS),
            temperature=np.full(NUM_JOINTS, 30.0),
            current=_zeros(NUM_JOINTS),
            status=np.zeros(NUM_JOINTS, dtype=np.int64),
            battery=np.array([1.0, 0.0, -1.0, 30.0]),
            accelerometer=np.array([0.0, 0.0, -9.81]),
            gyroscope=_zeros(3),
            angles=_zeros(2),
            sonar=np.array([2.55, 2.55]),
            fsr=_zeros(8),
            touch=_zeros(14),
        )

    def joint(self, name: str) -> float:
        """Measured angle of the named joint, rad."""
        return float(self.position[JOINT_INDEX[name]])

    def fsr_cell(self, name: str) -> float:
        """One FSR cell (see ``lola_io.joints.FSR_NAMES``), kg."""
        return float(self.fsr[FSR_INDEX[name]])

    def touched(self, name: str) -> bool:
        """Whether the named touch sensor (``lola_io.joints.TOUCH_NAMES``) is pressed."""
        return bool(self.touch[TOUCH_INDEX[name]] > 0.5)

    def battery_field(self, name: str) -> float:
        """One battery field: charge, status, current or temperature."""
        return float(self.battery[BATTERY_INDEX[name]])

    @property
    def left_fsr_total(self) -> float:
        """Total load on the left foot, kg."""
        return float(self.fsr[:4].sum())

    @property
    def right_fsr_total(self) -> float:
        """Total load on the right foot, kg."""
        return float(self.fsr[4:].sum())


@attrs.frozen
class ActuatorFrame:
    """One LoLA actuator message (client → robot).

    ``position`` and ``stiffness`` are always present. LED and sonar fields that are ``None``
    are not sent (LoLA applies only the keys it receives); a frame with all of them set encodes
    to the complete 786-byte message.
    """

    position: np.ndarray = _float_array(NUM_JOINTS)
    stiffness: np.ndarray = _float_array(NUM_JOINTS)
    chest: np.ndarray | None = _optional_float_array(LED_LENGTHS["Chest"])
    l_foot: np.ndarray | None = _optional_float_array(LED_LENGTHS["LFoot"])
    r_foot: np.ndarray | None = _optional_float_array(LED_LENGTHS["RFoot"])
    l_ear: np.ndarray | None = _optional_float_array(LED_LENGTHS["LEar"])
    r_ear: np.ndarray | None = _optional_float_array(LED_LENGTHS["REar"])
    l_eye: np.ndarray | None = _optional_float_array(LED_LENGTHS["LEye"])
    r_eye: np.ndarray | None = _optional_float_array(LED_LENGTHS["REye"])
    skull: np.ndarray | None = _optional_float_array(LED_LENGTHS["Skull"])
    sonar: tuple[bool, bool] | None = attrs.field(
        default=None,
        converter=lambda v: tuple(v) if isinstance(v, list | tuple | np.ndarray) else v,
    )

    @sonar.validator
    def _check_sonar(self, attribute: attrs.Attribute, value: Any) -> None:
        # bool(x) would accept anything; the wire carries two booleans and nothing else.
        if value is not None and (
            not isinstance(value, tuple)
            or len(value) != 2
            or not all(isinstance(v, bool | np.bool_) for v in value)
        ):
            raise ValueError(f"ActuatorFrame.sonar: expected 2 bools (left, right), got {value!r}")

    @classmethod
    def limp(cls, position: np.ndarray) -> ActuatorFrame:
        """Every joint at stiffness 0, targets at ``position`` (the measured angles)."""
        return cls(position=position, stiffness=_zeros(NUM_JOINTS))

    @classmethod
    def complete(cls, position: np.ndarray, stiffness: np.ndarray) -> ActuatorFrame:
        """A frame with every key present: LEDs off, sonar on."""
        return cls(
            position=position,
            stiffness=stiffness,
            **{field: _zeros(LED_LENGTHS[key]) for field, key in ACTUATOR_LED_FIELDS.items()},
            sonar=(True, True),
        )

    @property
    def is_complete(self) -> bool:
        """True when every optional key is present."""
        return self.sonar is not None and all(
            getattr(self, field) is not None for field in ACTUATOR_LED_FIELDS
        )

    def joint(self, name: str) -> float:
        """Target angle of the named joint, rad."""
        return float(self.position[JOINT_INDEX[name]])


#: Actuator frame attribute → wire key, for the LED arrays.
ACTUATOR_LED_FIELDS = {
    "chest": "Chest",
    "l_foot": "LFoot",
    "r_foot": "RFoot",
    "l_ear": "LEar",
    "r_ear": "REar",
    "l_eye": "LEye",
    "r_eye": "REye",
    "skull": "Skull",
}


def unchecked(cls: type[_Frame], fields: dict[str, Any]) -> _Frame:
    """``cls(**fields)`` without converters or validators, for values the codec has checked.

    Decoding has already checked every value's type, length and finiteness on the wire; running
    the attrs converters and validators again would cost as much as the decode itself. Arrays
    must already be float64 (status int64); optional fields left out are ``None``; a required
    field left out raises ``KeyError``.
    """
    frame = object.__new__(cls)
    for name, required in _FIELD_NAMES[cls]:
        object.__setattr__(frame, name, fields[name] if required else fields.get(name))
    return frame


_Frame = TypeVar("_Frame", SensorFrame, ActuatorFrame)
_FIELD_NAMES = {
    cls: tuple((f.name, f.default is attrs.NOTHING) for f in attrs.fields(cls))
    for cls in (SensorFrame, ActuatorFrame)
}
