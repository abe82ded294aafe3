"""oxide-version-bounds-checks keeps every kernel's behaviour: results where all indices are in bounds, and
the trap where one is not. The reference interpreter runs each kernel before and after the pass; in the
versioned kernel an unchecked access out of bounds is its own error, so a fast path taken wrongly fails
the test instead of looking like the expected trap."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxide.frontends.simt.compile import compile_rust
from oxide.dialects.context import make_context
from oxide.passes.pipeline import build_pass_manager
from tests.unit.frontends.simt.simt_interp import Interpreter, Trap


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

GUARDED = """
#[kernel]
pub unsafe fn k(x: &[f32], n: usize, limit: usize, out: &mut [f32]) {
    let mut s = 0.0f32;
    for j in 0..n {
        if j < limit {
            s += x[j];
        }
    }
    out[0] = s;
}
"""

PRODUCT = """
#[kernel]
pub unsafe fn k(x: &[f32], a: usize, b: usize, n: usize, out: &mut [f32]) {
    for j in 0..n {
        out[j] = x[j * a + b];
    }
}
"""

NEST = """
#[kernel]
pub unsafe fn k(x: &[f32], rows: usize, cols: usize, w: usize, out: &mut [f32]) {
    let b = thread::blockIdx_x() as usize;
    for r in 0..rows {
        for c in (0..cols).step_by(2) {
            if c < w {
                out[r * w + c] = x[(b + r) * w + c + 1];
            }
        }
    }
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


def _kernel(src: str, versioned: bool):
    return next(op for op in _compiled(src, versioned).module.body.operations[0].regions[0].blocks[0].operations
                if op.operation.name == "gpu.func")


def _outcome(src: str, versioned: bool, args: list, block: int = 0):
    func = _kernel(src, versioned)
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


def test_loop_with_break_is_versioned():
    # `break` puts the counter's advance under an scf.if: it still advances by the step or not at all.
    text = str(_compiled(BREAKING, True).module)
    assert text.count("simt.load_unchecked") == 2 and text.count("scf.while") == 2


def test_checked_copy_ends_in_a_merge_fence():
    loop_if = next(op for op in _kernel(GUARDED, True).regions[0].blocks[0].operations
                   if op.operation.name == "scf.if" and len(op.regions[1].blocks))
    *_, fence, end = loop_if.regions[1].blocks[0].operations
    assert fence.operation.name == "simt.inline_ptx" and end.operation.name == "scf.yield"


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


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 20), st.integers(0, 30), st.integers(0, 30))
def test_guarded_loop_matches_the_original(length, n, limit):
    # n past the slice fails the check; the guard then keeps the checked copy in bounds, and it runs to its end.
    args = [[float(i + 1) for i in range(length)], n, limit, [0.0]]
    assert _outcome(GUARDED, True, args) == _outcome(GUARDED, False, args)


def test_guarded_loop_past_the_slice_runs_the_checked_copy():
    Strict.unchecked = 0
    assert _outcome(GUARDED, True, [[1.0, 2.0, 3.0], 10, 3, [0.0]]) == [6.0]
    assert Strict.unchecked == 0


@pytest.mark.parametrize("a, n", [(2**63, 3), (2**62, 5), (2**33 + 1, 2)])
def test_wrapping_product_takes_the_checked_copy(a, n):
    # The largest index (n - 1) * a wraps to a small number (or is huge): the check must not pass. A fast copy
    # taken wrongly would read x[a] unchecked, which Strict reports instead of the original's trap.
    assert _outcome(PRODUCT, True, [[1.0] * 4, a, 0, n, [0.0] * n]) == "trap"


def test_small_product_takes_the_unchecked_copy():
    Strict.unchecked = 0
    args = [[float(i) for i in range(16)], 4, 1, 4, [0.0] * 4]
    assert _outcome(PRODUCT, True, args) == _outcome(PRODUCT, False, args) == [1.0, 5.0, 9.0, 13.0]
    assert Strict.unchecked == 8


def test_loop_nest_is_versioned_once_from_the_outside():
    text = str(_compiled(NEST, True).module)
    # One check before the outer loop covers both accesses for both counters, so the fast copy is the whole
    # nest unchecked (2 loops). In the checked copy (the original nest) the inner loop is then versioned on
    # its own, r being fixed there: the outer loop, and the inner loop's fast and checked copies (3 loops).
    assert text.count("simt.load_unchecked") == 2 and text.count("simt.store_unchecked") == 2
    assert text.count("scf.for") == 5
    fast = text.index("scf.for")
    assert text.index("scf.for", fast + 1) < text.index("simt.load_unchecked") < text.index("} else {")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.integers(0, 5), st.integers(0, 7), st.integers(0, 6), st.integers(0, 2))
def test_loop_nest_matches_the_original(length, rows, cols, w, block):
    args = [[float(i % 5) for i in range(length)], rows, cols, w, [0.0] * 48]
    assert _outcome(NEST, True, args, block) == _outcome(NEST, False, args, block)


def test_in_bounds_nest_takes_the_unchecked_copy():
    Strict.unchecked = 0
    args = [[float(i) for i in range(40)], 3, 6, 6, [0.0] * 18]
    assert _outcome(NEST, True, args, 1) == _outcome(NEST, False, args, 1)
    assert Strict.unchecked == 2 * 3 * 3  # a load and a store for each (r, c) with c in 0, 2, 4
