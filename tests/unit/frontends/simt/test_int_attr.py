"""int_attr builds an integer constant of any width from any Python int, wrapped to the type's width as
Rust's `as` wraps (the binding's IntegerAttr.get takes only 64-bit values and raised a TypeError)."""
from __future__ import annotations

import pytest
from mlir import ir

from oxide.frontends.simt.emit_support import int_attr
from oxide.dialects.context import make_context


@pytest.mark.parametrize("bits, value, printed", [
    (128, 2**128 - 1, "-1 : i128"),
    (128, -1, "-1 : i128"),
    (128, 2**127 - 1, "170141183460469231731687303715884105727 : i128"),
    (64, 2**64 - 1, "-1 : i64"),
    (32, 2**32 + 5, "5 : i32"),
    (8, -129, "127 : i8"),
    (1, 1, "true"),
])
def test_int_attr_wraps_to_the_width(bits: int, value: int, printed: str) -> None:
    with make_context(), ir.Location.unknown():
        assert str(int_attr(ir.IntegerType.get_signless(bits), value)) == printed


def test_int_attr_of_index_is_64_bits() -> None:
    with make_context(), ir.Location.unknown():
        assert str(int_attr(ir.IndexType.get(), 2**64 + 3)) == "3 : index"


def test_128_bit_division_checks_build_their_constants():
    """Division checks MIN / -1 with MIN of the operand type: for i128 that constant is wider than 64 bits."""
    import oxide

    source = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(a: u64, b: u64, mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let q = (a as i128) / (b as i128) + (a as i128) % 7 + ((a as u128) / (b as u128 + 1)) as i128;
    if let Some(o) = out.get_mut(idx) { *o = q as u64; }
}
"""
    assert "-170141183460469231731687303715884105728 : i128" in oxide.compile(source, "wide.rs").simt_ir
