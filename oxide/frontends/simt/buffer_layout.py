"""The layout of a buffer element as the runtime reads it: size, alignment and each scalar leaf's offset and
type (recorded in a kernel's signature for buffers of structs, tuples and arrays)."""

from __future__ import annotations

from typing import Any

from oxide.frontends.simt import types as T


def element_layout(t: T.Ty) -> dict[str, Any]:
    """What the runtime needs to know of a buffer element that is a struct, tuple or array (empty for a
    scalar): its size and alignment and each scalar leaf's byte offset and type, e.g. for
    `#[repr(C, align(16))] struct F3([f32; 3])` {"size": 16, "align": 16, "leaves": [[0, "f32"], [4, "f32"],
    [8, "f32"]]}."""
    if not T.is_aggregate(t) and not isinstance(t, T.Enum):  # an enum element is its discriminant integer
        return {}
    size, align = T.layout(t)
    return {"size": size, "align": align, "leaves": [[offset, name] for offset, name in _leaves(t, 0)]}


def _leaves(t: T.Ty, base: int) -> list[tuple[int, str]]:
    if isinstance(t, T.Array):
        size = T.layout(t.elem)[0]
        return [leaf for i in range(t.length) for leaf in _leaves(t.elem, base + i * size)]
    if isinstance(t, (T.Tuple, T.Struct)):
        return [leaf for part, offset in zip(T.members(t), T.field_offsets(t)) for leaf in _leaves(part, base + offset)]
    if isinstance(t, T.Atomic):
        return _leaves(t.value, base)
    if isinstance(t, (T.Int, T.Float, T.Bool)) and not isinstance(t, T.Char):
        return [(base, t.rust())]
    if isinstance(t, T.Enum):
        return [(base, t.storage.rust())]
    # char, pointers: by their bits
    return [(base, f"u{T.layout(t)[0] * 8}")]
