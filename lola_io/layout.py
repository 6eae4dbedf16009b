"""Fixed byte layouts of LoLA maps: where every float, status byte, string and bool sits.

A LoLA frame with a given key set and order always has the same bytes except for its values:
float32 payloads after 0xca tags, fixint status bytes, fixstr contents, and the low bit of a
bool. Knowing those positions lets the codec encode by filling a template and decode by one
masked comparison plus one gather, instead of building and walking Python lists, which is what
makes a whole cycle's codec work cost tens of microseconds rather than a hundred.

The layout is a pure consequence of MessagePack's rules; the tests check it byte for byte
against the msgpack library's own packer.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import msgpack
import numpy as np

#: Kinds of value a layout entry holds.
FLOATS, INTS, STRINGS, BOOLS = "floats", "ints", "strings", "bools"

_FLOAT32_TAG = 0xCA
_FALSE = 0xC2


@attrs.frozen(eq=False)
class Layout:
    """The byte layout of one MessagePack map of arrays, with its values left blank.

    ``template & mask == masked`` holds for exactly the messages with this layout (same keys,
    order, array lengths, string lengths; floats as float32, ints as positive fixints).
    """

    keys: tuple[str, ...]
    size: int
    template: np.ndarray
    mask: np.ndarray
    masked: np.ndarray
    float_bytes: np.ndarray  # 4 byte positions per float, in key order
    int_pos: np.ndarray
    string_spans: tuple[tuple[int, int], ...]
    bool_pos: np.ndarray
    masked_bytes: bytes = attrs.field(init=False)
    _scratch: np.ndarray = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "masked_bytes", self.masked.tobytes())
        object.__setattr__(self, "_scratch", np.empty(self.size, dtype=np.uint8))

    def matches(self, data: np.ndarray) -> bool:
        """Whether ``data`` (uint8) is a message of exactly this layout."""
        if data.size != self.size:
            return False
        # Masking into a scratch buffer and comparing bytes (memcmp) beats numpy's == and all().
        np.bitwise_and(data, self.mask, out=self._scratch)
        return self._scratch.tobytes() == self.masked_bytes

    def floats(self, data: np.ndarray) -> np.ndarray:
        """Every float of a matching message, in key order, as float64."""
        return data[self.float_bytes].view(">f4").astype(np.float64)

    def fill(
        self,
        floats: np.ndarray,
        ints: Sequence[int] = (),
        strings: Sequence[bytes] = (),
        bools: Sequence[bool] = (),
    ) -> bytes:
        """The message with these values; the caller has checked ranges and lengths."""
        out = self.template.copy()
        out[self.float_bytes] = floats.astype(">f4").view(np.uint8)
        if len(ints):
            out[self.int_pos] = ints
        for (start, length), text in zip(self.string_spans, strings, strict=True):
            out[start : start + length] = np.frombuffer(text, dtype=np.uint8)
        for position, value in zip(self.bool_pos.tolist(), bools, strict=False):
            out[position] = _FALSE + bool(value)
        return out.tobytes()


def build_layout(entries: Sequence[tuple[str, str, int | tuple[int, ...]]]) -> Layout:
    """The layout of a map whose entries are ``(key, kind, count)``, in order.

    ``count`` is the array length, except for STRINGS where it is the byte length of each
    string (each must fit a fixstr, i.e. at most 31 bytes).
    """
    packer = msgpack.Packer()
    template = bytearray()
    mask = bytearray()
    float_bytes: list[int] = []
    int_pos: list[int] = []
    bool_pos: list[int] = []
    spans: list[tuple[int, int]] = []

    def fixed(chunk: bytes) -> None:
        template.extend(chunk)
        mask.extend(b"\xff" * len(chunk))

    fixed(packer.pack_map_header(len(entries)))
    for key, kind, count in entries:
        fixed(packer.pack(key))
        length = len(count) if isinstance(count, tuple) else count
        fixed(packer.pack_array_header(length))
        for i in range(length):
            if kind == FLOATS:
                fixed(bytes([_FLOAT32_TAG]))
                float_bytes.extend(range(len(template), len(template) + 4))
                template.extend(b"\0\0\0\0")
                mask.extend(b"\0\0\0\0")
            elif kind == INTS:
                int_pos.append(len(template))
                template.append(0)
                mask.append(0x80)  # a positive fixint has its top bit clear
            elif kind == BOOLS:
                bool_pos.append(len(template))
                template.append(_FALSE)
                mask.append(0xFE)  # false 0xc2 and true 0xc3 differ in the low bit only
            elif kind == STRINGS:
                size = count[i]  # type: ignore[index]
                if size > 31:
                    raise ValueError(f"layout {key!r}: string {i} of {size} bytes is not a fixstr")
                packed = packer.pack(" " * size)
                fixed(packed[: len(packed) - size])  # the str header alone
                spans.append((len(template), size))
                template.extend(b"\0" * size)
                mask.extend(b"\0" * size)
            else:
                raise ValueError(f"layout {key!r}: unknown kind {kind!r}")
    template_array = np.frombuffer(bytes(template), dtype=np.uint8)
    mask_array = np.frombuffer(bytes(mask), dtype=np.uint8)
    return Layout(
        keys=tuple(key for key, _, _ in entries),
        size=len(template),
        template=template_array,
        mask=mask_array,
        masked=template_array & mask_array,
        float_bytes=np.array(float_bytes, dtype=np.intp),
        int_pos=np.array(int_pos, dtype=np.intp),
        string_spans=tuple(spans),
        bool_pos=np.array(bool_pos, dtype=np.intp),
    )
