"""`X.get_ref()` of a `ConstantMemory<T>` (intrinsics/constant_memory.py): for an array, a reference into
constant memory, so `X.get_ref()[i]` reads the one element where it lies (`ld.const` at the variable plus the
index), where `X.get()[i]` copies the whole array first; for a scalar, its value. The emulator has no constant
memory, so these check the IR and the PTX (the GPU run is tests/gpu's)."""

from __future__ import annotations

import re

import pytest

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, ir, kernel
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_TABLE = ("#[constant]\nstatic TABLE: ConstantMemory<[f32; 256]> = ConstantMemory::UNINIT;\n"
          "#[constant]\nstatic SCALE: ConstantMemory<f32> = ConstantMemory::UNINIT;\n")
_BODY = ("let idx = thread::index_1d();\nlet h = input[idx.get()];\n"
         "let v = TABLE.get_ref()[(h >> 24) as usize & 255] * *SCALE.get_ref();\n"
         "let n = TABLE.get_ref().len();\n"
         "if let Some(o) = out.get_mut(idx) { *o = v + n as f32; }")
_SRC = _TABLE + kernel("input: &[u32], mut out: DisjointSlice<f32>", _BODY)


def test_get_ref_indexes_constant_memory_in_place():
    text = ir(_SRC)
    # One element load through a pointer into address space 4, no copy loop of the 256 elements.
    assert re.search(r"\"simt.ptr_load\"\(%\w+\) : \(!simt\.ptr<f32, 4 : i64>\) -> f32", text)
    assert "scf.for" not in text
    assert "memref.alloca" not in text


def test_get_ref_is_not_a_mutable_reference():
    with pytest.raises(OxideError, match=r"cannot assign through a shared reference"):
        build(_TABLE + kernel("", "TABLE.get_ref()[0] = 1.0;"))


@needs_ptxas
def test_get_ref_assembles(tmp_path):
    ptx = assemble(_SRC, tmp_path)
    assert re.search(r"ld\.const\.b32\s+%r\d+, \[%rd\d+\]", ptx)  # indexed: at TABLE plus the offset
    assert ptx.count("ld.const") == 2  # that element and SCALE: nothing copied
