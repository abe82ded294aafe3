"""The wgmma operand model: the 64-bit shared-memory matrix descriptor, the canonical layouts a descriptor
describes, and the element types A and B are read as -- the byte addresses the hardware reads an operand
from, and its values as float32, exactly.

A descriptor (the PTX ISA's matrix-descriptor format) holds the start address >> 4 (bits 0-13), the
leading dimension byte offset (LBO) >> 4 (16-29), the stride dimension byte offset (SBO) >> 4 (32-45), the
base offset (49-51) and the swizzle mode (62-63: 0 none, 1 128-byte, 2 64-byte, 3 32-byte).

An operand is an MN x K matrix (A: M = 64 rows; B: N columns, seen as N x K). It is made of core matrices
of 8 rows of 16 bytes. K-major (every type): rows are MN indices, the 16 bytes run along K.
- no swizzle: a core matrix is 128 contiguous bytes; core matrices are SBO apart along MN and LBO apart
  along K;
- a W-byte swizzle (W = 32, 64, 128): each MN row holds W contiguous bytes of K (one instruction reads 32
  of them, so the start address advances by 32 bytes per k-step inside the row); 8 rows make a swizzle
  atom, atoms are SBO apart along MN; LBO is not used.
MN-major (16-bit types only, the `transpose` immediates): rows are K indices, the bytes run along MN.
- no swizzle: a core matrix is 8 K-rows of 16 bytes (8 MN elements); core matrices are SBO apart along MN
  and LBO apart along K;
- a W-byte swizzle: each K row holds W contiguous bytes of MN; 8 K rows make an atom; atoms are LBO apart
  along MN and SBO apart along K.
The swizzle permutes the 16-byte chunks of the absolute shared address, as `shared_window.swizzle` (the
layout a TMA load of the same mode writes): advancing the start address by 32 bytes inside a swizzled row
reads the next K slice of a TMA tile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oxide.runtime.emulator import fp8
from oxide.runtime.emulator.shared_window import SharedMemoryError, SharedWindow, swizzle

# The descriptor's swizzle field (bits 62-63) per mode in bytes, and back.
SWIZZLE_CODES = {0: 0, 128: 1, 64: 2, 32: 3}
SWIZZLE_MODES = {code: mode for mode, code in SWIZZLE_CODES.items()}
ELEMENT_BYTES = {"bf16": 2, "f16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1}
FIELD = 0x3FFF  # the start address and the byte offsets are 14-bit fields of the value >> 4


class DescriptorError(SharedMemoryError):
    """A descriptor the emulator cannot read an operand through (reported located at the MMA)."""


@dataclass(frozen=True)
class Descriptor:
    """A decoded matrix descriptor: byte addresses and offsets, and the swizzle mode in bytes (0: none)."""

    start: int
    leading: int
    stride: int
    base_offset: int
    swizzle: int


def decode(value: int) -> Descriptor:
    """The fields of a 64-bit descriptor (a signed or unsigned integer of the same bits)."""
    bits = int(value) & ((1 << 64) - 1)
    return Descriptor(start=(bits & FIELD) << 4, leading=(bits >> 16 & FIELD) << 4, stride=(bits >> 32 & FIELD) << 4,
                      base_offset=bits >> 49 & 7, swizzle=SWIZZLE_MODES[bits >> 62])


def encode(start: int, leading: int, stride: int, swizzle_mode: int, base_offset: int = 0) -> int:
    """The descriptor's bits as an unsigned int: the same arithmetic as the simt.smem_desc lowering."""
    return ((start >> 4 & FIELD) | (leading >> 4 & FIELD) << 16 | (stride >> 4 & FIELD) << 32
            | (base_offset & 7) << 49 | SWIZZLE_CODES[swizzle_mode] << 62)


def logical_addresses(desc: Descriptor, rows: int, k: int, itemsize: int, mn_major: bool) -> np.ndarray:
    """The unswizzled byte address of the first byte of each element (mn, kk) of an MN x K operand."""
    mn = np.arange(rows, dtype=np.int64)[:, None]
    kk = np.arange(k, dtype=np.int64)[None, :]
    width = desc.swizzle
    if not mn_major:
        kb = kk * itemsize
        if width == 0:
            return desc.start + mn % 8 * 16 + mn // 8 * desc.stride + kb // 16 * desc.leading + kb % 16
        return desc.start + mn % 8 * width + mn // 8 * desc.stride + kb
    mb = mn * itemsize
    if width == 0:
        return desc.start + mb % 16 + mb // 16 * desc.stride + kk % 8 * 16 + kk // 8 * desc.leading
    return desc.start + mb % width + mb // width * desc.leading + kk % 8 * width + kk // 8 * desc.stride


def to_float32(raw: np.ndarray, kind: str) -> np.ndarray:
    """Elements of type `kind` from their bytes (`raw`: (..., itemsize) uint8, little-endian) as float32;
    every value is exact (tf32 ignores the low 13 mantissa bits of its f32 container, as the hardware does)."""
    raw = np.ascontiguousarray(raw)
    if kind == "bf16":
        return (raw.view(np.uint16)[..., 0].astype(np.uint32) << 16).view(np.float32)
    if kind == "f16":
        return raw.view(np.float16)[..., 0].astype(np.float32)
    if kind == "tf32":
        return (raw.view(np.uint32)[..., 0] & np.uint32(0xFFFFE000)).view(np.float32)
    if kind in ("e4m3", "e5m2"):
        return fp8.decode(raw[..., 0], kind)
    raise DescriptorError(f"wgmma has no {kind} operands")


def read_operand(window: SharedWindow, value: int, rows: int, k: int, kind: str, mn_major: bool) -> np.ndarray:
    """The MN x K operand (float32) that descriptor `value` names in `window`, read as the hardware reads it.
    A read outside the window, or of bytes a TMA load has not completed, is a SharedMemoryError."""
    desc = decode(value)
    if desc.base_offset:
        raise DescriptorError(f"a matrix descriptor with base offset {desc.base_offset}: the emulator reads "
                              "swizzled operands at their absolute shared address and models base offset 0 only "
                              "(start each swizzled matrix at a multiple of the swizzle repeat, 8 rows)")
    itemsize = ELEMENT_BYTES[kind]
    first = swizzle(logical_addresses(desc, rows, k, itemsize, mn_major), desc.swizzle)
    addresses = first[..., None] + np.arange(itemsize)  # an element never crosses a 16-byte chunk
    high = int(addresses.max())
    if high >= window.size:
        raise DescriptorError(f"the wgmma operand at shared address {desc.start:#x} (LBO {desc.leading}, SBO "
                              f"{desc.stride}, {_mode_name(desc.swizzle)}) reads byte {high:#x}, outside the "
                              f"block's {window.size} bytes of shared memory")
    busy = np.flatnonzero(window.pending[addresses.reshape(-1)] >= 0)
    if busy.size:
        window.check_ready(int(addresses.reshape(-1)[busy[0]]), 1)  # raises, naming the barrier
    return to_float32(window.bytes[addresses], kind)


def _mode_name(mode: int) -> str:
    return f"{mode}-byte swizzle" if mode else "no swizzle"
