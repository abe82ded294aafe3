"""Buffer elements as the runtime checks them: which arrays may stand for a slice, DisjointSlice or pointer
of a given element type, how many elements they hold, and the alignment their address must have.

A scalar element (`&[f32]`) takes an array of exactly its dtype. A struct, tuple or array element
(`&[F4]` with `#[repr(C, align(16))] struct F4([f32; 4])`) takes either
- an array of a numpy structured dtype of the element's size whose scalar fields sit at the element's
  offsets with the element's types (padding is free), one record per element, or
- an array of the element's one scalar type, when every leaf has that type and there is no padding
  (`F4`: float32 arrays of 4 * n values hold n elements; torch/CuPy tensors work this way).
The address must be a multiple of the element's alignment: a view at an odd offset of a larger array would
make the kernel's vector accesses fault (device allocations are 256-byte aligned).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oxide.runtime.scalars import SCALARS
from oxide.runtime.signature import ParamSpec


@dataclass(frozen=True)
class Element:
    """The element type of one buffer parameter: `name` as Rust writes it, size and alignment in bytes, its
    scalar leaves (byte offset, numpy dtype), and the one dtype of an array that holds it directly."""

    name: str
    size: int
    align: int
    leaves: tuple[tuple[int, np.dtype], ...]
    plain: np.dtype | None  # the dtype of a flat array of leaves, or None (mixed types or padding)

    @property
    def per_element(self) -> int:
        """Values of `plain` per element."""
        return len(self.leaves)

    def describe(self) -> str:
        """How to pass it, for messages."""
        struct = f"a numpy structured dtype of itemsize {self.size} with its fields at its offsets"
        if not self.leaves or len(self.leaves) == 1 and self.plain is not None:
            return f"elements of {self.name} ({self.plain})"
        if self.plain is not None:
            return f"{self.name} elements: {struct}, or {self.plain} values, {self.per_element} per element"
        return f"{self.name} elements: {struct}"

    def count(self, dtype: np.dtype, size: int) -> int | None:
        """How many elements an array of `size` values of `dtype` holds, or None if it cannot hold them."""
        if self.plain is not None and dtype == self.plain and dtype.names is None:
            return size // self.per_element if size % self.per_element == 0 else None
        if dtype.names is not None and dtype.itemsize == self.size and flat_fields(dtype) == self.leaves:
            return size
        return None


def element_of(p: ParamSpec) -> Element:
    """The element of a buffer parameter (KeyError for a scalar type the runtime does not know)."""
    if not p.layout:
        dtype = SCALARS[p.elem].dtype
        return Element(p.elem, dtype.itemsize, dtype.itemsize, ((0, dtype),), dtype)
    leaves = tuple((int(offset), SCALARS[scalar].dtype) for offset, scalar in p.layout["leaves"])
    size, align = int(p.layout["size"]), int(p.layout["align"])
    kinds = {dtype for _, dtype in leaves}
    dense = len(kinds) == 1 and all(offset == i * leaves[0][1].itemsize for i, (offset, _) in enumerate(leaves)) \
        and size == len(leaves) * leaves[0][1].itemsize
    return Element(p.elem, size, align, leaves, leaves[0][1] if dense else None)


def flat_fields(dtype: np.dtype, base: int = 0) -> tuple[tuple[int, np.dtype], ...]:
    """The scalar fields of a (structured, possibly nested, possibly with sub-arrays) dtype, by offset."""
    if dtype.subdtype is not None:
        inner, shape = dtype.subdtype
        count = int(np.prod(shape))
        return tuple(leaf for i in range(count) for leaf in flat_fields(inner, base + i * inner.itemsize))
    if dtype.names is None:
        return ((base, dtype.newbyteorder("=")),)
    fields = sorted((dtype.fields[name][1], dtype.fields[name][0]) for name in dtype.names)
    return tuple(leaf for offset, sub in fields for leaf in flat_fields(sub, base + offset))


def unpassable(p: ParamSpec) -> str | None:
    """Why the runtime cannot pass a SIMT kernel parameter from Python (an element type it has no numpy form
    for, such as f16 or 128-bit integers), or None when it can."""
    if p.kind == "scalar" and p.elem not in SCALARS:
        return f"the runtime has no {p.elem} scalars"
    if p.is_buffer and p.kind != "ptr":  # a raw pointer also takes a device address, whatever it points at
        try:
            element_of(p)
        except KeyError as exc:
            return f"the runtime has no arrays of {exc.args[0]} elements"
    return None


def has_wide_integers(p: ParamSpec) -> bool:
    """Whether the parameter holds 128-bit integers, which no array library or PTX parameter the runtime fills
    has (so the kernel can never be launched from Python with it)."""
    leaves = [scalar for _, scalar in p.layout.get("leaves", [])]
    return any(t in ("i128", "u128") for t in [p.elem, *p.fields, *leaves])
