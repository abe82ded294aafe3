"""oxide-widen-bounds-checks keeps every kernel's behaviour: where all reads are in bounds the same results,
where one is not the trap, with every write before the trapping read's run done, as in the original. The
reference interpreter runs each kernel before and after the pass; an unchecked read out of bounds in the
widened kernel is its own error (the pass dropped a check that could fail)."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from oxide.frontends.rust.compile import compile_rust
from oxide.ir import make_context
from oxide.passes.pipeline import build_pass_manager
from tests.unit.frontend.simt_interp import Trap
from tests.unit.test_version_bounds_checks import Strict

READS = """
#[kernel]
pub unsafe fn k(x: &[f32], y: &[f32], i: usize, j: usize, k: usize, out: &mut [f32]) {
    let a = x[i];
    let b = x[j] + y[k];
    out[0] = a + b;
    let c = x[k];
    let d = y[i + j];
    let mut n = i;
    n = n + j;
    let e = y[n];
    let f = if i > j { y[k] } else { 0.0 };
    out[1] = c * d + e + f;
}
"""


@lru_cache(maxsize=None)
def _compiled(widened: bool):
    context = make_context()
    result = compile_rust("use cuda_device::{kernel, thread};\n" + READS, "k.rs", context)
    if widened:
        with context:
            build_pass_manager("builtin.module(oxide-widen-bounds-checks)", context).run(result.module.operation)
    return result


def _kernel(widened: bool):
    return next(op for op in _compiled(widened).module.body.operations[0].regions[0].blocks[0].operations
                if op.operation.name == "gpu.func")


def _run(widened: bool, x: list, y: list, i: int, j: int, k: int) -> tuple[str, list]:
    out = [0.0, 0.0]
    try:
        Strict(block=0).run(_kernel(widened), [list(x), list(y), i, j, k, out])
    except Trap:
        return "trap", out
    return "ok", out


def test_runs_are_checked_once_and_end_at_a_store():
    text = str(_compiled(True).module)
    # x[i], x[j], y[k] (one check), the store, x[k], y[i + j] (one check). y[n] reads a local assigned after
    # the run began, so it keeps its check, as does y[k] inside the `if`.
    assert text.count('"simt.trap"') == 2
    assert text.count("simt.load_unchecked") == 5 and text.count('"simt.load"') == 2
    assert text.count('"simt.store"') == 2  # stores keep their own checks


def test_in_bounds_reads_give_the_same_results():
    Strict.unchecked = 0
    assert _run(True, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], 0, 1, 2) == _run(False, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], 0, 1, 2)
    assert Strict.unchecked == 5


def test_a_read_out_of_bounds_traps_after_the_writes_before_its_run():
    # y[i + j] is out of bounds: out[0] is written first in both kernels, then they trap.
    widened, original = _run(True, [1.0, 2.0], [3.0], 0, 1, 0), _run(False, [1.0, 2.0], [3.0], 0, 1, 0)
    assert widened == original == ("trap", [2.0 + 3.0 + 1.0, 0.0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(-4, 4, width=32), max_size=5), st.lists(st.floats(-4, 4, width=32), max_size=5),
       st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
def test_widened_kernel_matches_the_original(x, y, i, j, k):
    assert _run(True, x, y, i, j, k) == _run(False, x, y, i, j, k)
