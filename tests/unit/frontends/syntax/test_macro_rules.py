"""`macro_rules!` at item level and in expression/statement position (expanded as a block): arms chosen by their literal tokens and nested groups, `$x:ident` /
`$e:expr` / `$t:ty` bindings, an `expr` staying one operand (`$e * 2` of `1 + 2` is 6, as in Rust), a
const table built by a `while` loop in a macro-made const, repetitions (`*` with and without a separator,
`+`, `?`, nested), and errors in expanded code located in the macro definition. (Invocations that match
no arm, repeated metavariables used outside a repetition, and arguments the expansion would capture
without hygiene are rejected: rejections/macro_rules_*.rs.)"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError
from oxide.runtime.emulator import launch

_SRC = """use cuda_device::{kernel, thread, DisjointSlice};
macro_rules! table {
    ($n:expr, $name:ident, $t:ty) => {
        const $name: [$t; $n] = {
            let mut t = [0 as $t; $n];
            let mut i = 0;
            while i < $n {
                t[i] = (i * i) as $t;
                i += 1;
            }
            t
        };
    };
}
macro_rules! pick {
    (double $f:ident = $e:expr) => { fn $f(x: u32) -> u32 { x * $e * 2 } };
    (plus [$f:ident] $e:expr) => { fn $f(x: u32) -> u32 { x + $e } };
}
const N: usize = 8;
table!(N, SQUARES, u32);
pick!(double twice_sum = 1 + 2);
pick!(plus [add_nine] 4 + 5);
mod inner {
    pub fn via_crate(x: u32) -> u32 { x + 100 }
    macro_rules! forward { ($f:ident) => { pub fn $f(x: u32) -> u32 { $crate::inner::via_crate(x) } }; }
    forward!(hundred);
}
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = SQUARES[i % N] + twice_sum(i as u32) * 1000 + add_nine(0) * 100000 + inner::hundred(0) * 10000000;
    }
}
"""


def test_item_macros_expand_with_rust_semantics():
    out = np.zeros(10, np.uint32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "k", (1,), (10,), [out])
    i = np.arange(10, dtype=np.uint32)
    np.testing.assert_array_equal(out, (i % 8) ** 2 + i * 6 * 1000 + 9 * 100000 + 100 * 10000000)


def test_an_error_in_expanded_code_points_into_the_macro_definition():
    src = _SRC.replace("t[i] = (i * i) as $t;", "t[i] = (i * i) as $t + undefined_name;")
    with pytest.raises(OxideError) as caught:
        oxide.compile(src, "k.rs")
    loc = caught.value.diagnostics[0].loc
    assert (loc.line, "undefined_name" in str(caught.value)) == (8, True)


_REPEAT = """use cuda_device::{kernel, thread, DisjointSlice};
macro_rules! scaled {
    ($($name:ident = $k:expr;)*) => { $( fn $name(x: u32) -> u32 { x * $k } )* };
}
macro_rules! table {
    ($name:ident: $($row:ident [$($v:literal)*])*) => {
        const $name: [[u32; 3]; 2] = [$([$($v),*]),*];
        $(const $row: u32 = 0 $(+ $v)*;)*
    };
}
macro_rules! total_const {
    ($name:ident, $($x:expr),+ $(,)?) => { const $name: u32 = 0 $(+ $x)+; };
}
scaled! { triple = 3; tenfold = 2 * 5; }
table!(GRID: ROW0 [1 2 3] ROW1 [4 5 6]);
total_const!(TOTAL, 1, 2 + 3, 4,);
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = triple(i as u32) + tenfold(1) * 100 + GRID[i % 2][i % 3] * 1000 + ROW0 * 10000 + ROW1 * 100000
            + TOTAL * 1000000;
    }
}
"""


def test_repetitions_expand_once_per_match():
    out = np.zeros(6, np.uint32)
    launch(oxide.compile(_REPEAT, "k.rs").emulator, "k", (1,), (6,), [out])
    i = np.arange(6)
    grid = np.array([[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(out, 3 * i + 10 * 100 + grid[i % 2, i % 3] * 1000 + 6 * 10000 + 15 * 100000
                                  + 10 * 1000000)


_EXPR = """use cuda_device::{kernel, thread, DisjointSlice};
macro_rules! square { ($e:expr) => {{ let v = $e; v * v }}; }
macro_rules! sum { ($($x:expr),+ $(,)?) => { 0 $(+ $x)+ }; }
macro_rules! bump { ($t:ident, $by:expr) => { $t += $by; }; }
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get() as u32;
    let v = 100u32;
    let mut acc = square!(i + 1);
    bump!(acc, sum!(1, 2, 3,));
    if let Some(o) = out.get_mut(idx) {
        *o = acc + v;
    }
}
"""


def test_expression_and_statement_macros_expand_as_blocks():
    out = np.zeros(4, np.uint32)
    launch(oxide.compile(_EXPR, "k.rs").emulator, "k", (1,), (4,), [out])
    # The macro's own `let v` stays inside its block: the kernel's `v` is still 100 afterwards.
    np.testing.assert_array_equal(out, (np.arange(4) + 1) ** 2 + 6 + 100)


def test_an_argument_the_expansion_would_capture_is_refused():
    src = _EXPR.replace("square!(i + 1)", "square!(i + v)")
    with pytest.raises(OxideError, match="would be captured by the macro's own `v`") as caught:
        oxide.compile(src, "k.rs")
    assert caught.value.diagnostics[0].loc.line == 10


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_macro_rules_ptx_assembles(tmp_path):
    for n, src in enumerate((_SRC, _REPEAT, _EXPR)):
        path = tmp_path / f"k{n}.ptx"
        path.write_text(oxide.compile(src, "k.rs").ptx["sm_90"])
        subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / f"k{n}.cubin")], check=True)
