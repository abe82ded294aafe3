"""oxide-version-bounds-checks keeps every kernel's behaviour: results where all indices are in bounds, and
the trap where one is not. The reference interpreter runs each kernel before and after the pass; in the
versioned kernel an unchecked access out of bounds is its own error, so a fast path taken wrongly fails
the test instead of looking like the expected trap."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxide.frontends.rust.compile import compile_rust
from oxide.ir import make_context
from oxide.passes.pipeline import build_pass_manager
from tests.unit.frontend.simt_interp import Interpreter, Trap


class UncheckedOutOfBounds(Exception):
    """An access the pass left unchecked went out of bounds: the pass was wrong to drop its check."""


class Strict(Interpreter):
    """The reference interpreter, counting unchecked accesses and failing on unchecked ones out of bounds."""

    unchecked = 0

    def op_simt_load_unchecked(self, op, ins):
        Strict.unchecked += 1
        if not 0 <= ins[1] < len(ins[0]):
            raise UncheckedOutOfBounds()
        return ins[0][ins[1]]

    def op_arith_mului_extended(self, op, ins):
        product = ins[0] * ins[1]
        return [product & (2**64 - 1), product >> 64]

    def op_simt_store_unchecked(self, op, ins):
        Strict.unchecked += 1
        if not 0 <= ins[1] < len(ins[0]):
            raise UncheckedOutOfBounds()
        ins[0][ins[1]] = ins[2]


STRIDED = """
#[kernel]
pub unsafe fn k(x: &[f32], cols: usize, stride: usize, first: usize, out: &mut [f32]) {
    let base = thread::blockIdx_x() as usize * cols;
    let mut j = first;
    let mut s = 0.0f32;
    while j < cols {
        s += x[base + j];
        j += stride;
    }
    for i in 0..cols {
        out[base + i] = s + x[base + 2 * i];
    }
}
"""

BREAKING = """
#[kernel]
pub unsafe fn k(x: &[f32], n: usize, out: &mut [f32]) {
    let mut j = 0;
    let mut s = 0.0f32;
    while j < n {
        if x[j] < 0.0 {
            break;
        }
        s += x[j + 1];
        j += 3;
    }
    out[0] = s;
}
"""


@lru_cache(maxsize=None)
def _compiled(src: str, versioned: bool):
    context = make_context()
    result = compile_rust("use cuda_device::{kernel, thread};\n" + src, "k.rs", context)
    if versioned:
        with context:
            build_pass_manager("builtin.module(oxide-version-bounds-checks)", context).run(result.module.operation)
    return result


def _outcome(src: str, versioned: bool, args: list, block: int = 0):
    func = next(op for op in _compiled(src, versioned).module.body.operations[0].regions[0].blocks[0].operations
                if op.operation.name == "gpu.func")
    args = [list(a) if isinstance(a, list) else a for a in args]
    try:
        Strict(block=block).run(func, args)
    except Trap:
        return "trap"
    return [a for a in args if isinstance(a, list)][-1]


def test_loops_are_versioned():
    text = str(_compiled(STRIDED, True).module)
    assert text.count("simt.load_unchecked") == 2 and text.count("simt.store_unchecked") == 1
    assert text.count("scf.while") == 2 and text.count("scf.for") == 2  # fast and checked copies


def test_in_bounds_takes_the_unchecked_loop():
    Strict.unchecked = 0
    args = [[float(i) for i in range(64)], 8, 3, 1, [0.0] * 40]
    assert _outcome(STRIDED, True, args, block=2) == _outcome(STRIDED, False, args, block=2)
    assert Strict.unchecked > 0


def test_out_of_bounds_still_traps():
    args = [[1.0] * 20, 8, 3, 1, [0.0] * 40]  # x[base + 2 * i] passes 20 for block 1
    assert _outcome(STRIDED, False, args, block=1) == "trap"
    assert _outcome(STRIDED, True, args, block=1) == "trap"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 40), st.integers(0, 12), st.integers(0, 5), st.integers(0, 12), st.integers(0, 3))
def test_strided_loop_matches_the_original(length, cols, stride, first, block):
    if stride == 0 and first < cols:
        return  # `j += 0` loops forever in both versions
    args = [[float(i % 7) for i in range(length)], cols, stride, first, [0.0] * 64]
    assert _outcome(STRIDED, True, args, block) == _outcome(STRIDED, False, args, block)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([1.0, 2.0, -1.0]), max_size=20), st.integers(0, 24))
def test_loop_with_early_exit_matches_the_original(values, n):
    args = [values, n, [0.0]]
    assert _outcome(BREAKING, True, args) == _outcome(BREAKING, False, args)


@pytest.mark.parametrize("chip", ["sm_90"])
def test_versioned_kernels_assemble(chip, tmp_path):
    import shutil
    import subprocess

    import oxide

    ptx = oxide.compile("use cuda_device::{kernel, thread};\n" + STRIDED, "k.rs", chip).ptx[chip]
    assert ptx.count("trap") < 12  # the fast copies carry no checks
    if shutil.which("ptxas"):
        (tmp_path / "k.ptx").write_text(ptx)
        subprocess.run(["ptxas", f"-arch={chip}", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.o")], check=True)
