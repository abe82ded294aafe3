"""`#[unroll]` / `#[unroll(N)]` on loops, and the frontend's own loops over small local arrays: the request
reaches LLVM's unroller (keep-loop-annotations), so an accumulator array indexed in an unrolled loop stays in
registers instead of local memory."""

from __future__ import annotations

import re

import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import ir, kernel, run

_ACCUMULATE = """
    let mut acc = [0.0f32; 128];
    let mut k = 0u32;
    while k < n {
        UNROLL
        for i in 0..128 {
            acc[i] += x[(k as usize) * 128 + i];
        }
        k += 1;
    }
    UNROLL
    for j in 0..128 {
        *out.add(thread::threadIdx_x() as usize * 128 + j) = acc[j];
    }
"""


def _accumulator_ptx(unroll: str) -> str:
    src = f"#[kernel]\npub unsafe fn k(x: &[f32], out: *mut f32, n: u32) {{{_ACCUMULATE.replace('UNROLL', unroll)}}}\n"
    return oxide.compile(src, name="k.rs").ptx["sm_90"]


def test_unroll_reaches_llvm_and_keeps_the_accumulator_in_registers():
    assert not re.search(r"(ld|st)\.local", _accumulator_ptx("#[unroll]"))
    # Without the request LLVM keeps a loop indexing the array, so the array lives in local memory.
    assert re.search(r"(ld|st)\.local", _accumulator_ptx(""))


@pytest.mark.parametrize("attr, annotation", [("#[unroll]", "full = true"), ("#[unroll(4)]", "count = 4")])
def test_unroll_annotates_for_while_and_loop(attr, annotation):
    body = f"""let mut s = 0u32;
    {attr}
    for i in 0..8u32 {{ s += i; }}
    let mut j = 0u32;
    {attr} // a comment between the attribute and its loop
    while j < 4 {{ s += j; j += 1; }}
    {attr}
    loop {{ s += 1; if s > 100 {{ break; }} }}
    if let Some(o) = out.get_mut(thread::index_1d()) {{ *o = s; }}"""
    text = ir(kernel("mut out: DisjointSlice<u32>", body))
    assert text.count("llvm.loop_annotation = #loop_annotation") == 3
    assert f"#llvm.loop_unroll<{annotation}" in text


def test_unrolled_loop_computes_the_same():
    body = """let mut s = 0u32;
    #[unroll(3)]
    for i in 0..10u32 { s += i * i; }
    out[0] = s;"""
    assert run("", body, [], n=1) == [285]


@pytest.mark.parametrize("attr, message", [
    ("#[unroll(0)]", "the unroll count must be an integer literal from 1 to 1024 or a named constant"),
    ("#[unroll(n + 1)]", "the unroll count must be an integer literal from 1 to 1024 or a named constant"),
    ("#[unroll(99999)]", "the unroll count must be an integer literal from 1 to 1024 or a named constant"),
])
def test_bad_unroll_counts_are_located_errors(attr, message):
    with pytest.raises(OxideError, match=re.escape(message)) as info:
        ir(kernel("mut out: DisjointSlice<u32>", f"let mut s = 0u32;\n{attr}\nfor i in 0..8u32 {{ s += i; }}"))
    assert info.value.diagnostics[0].loc.line == 4


def test_unroll_before_a_statement_that_is_not_a_loop_is_an_error():
    with pytest.raises(OxideError, match=r"`#\[unroll\]` must stand right before a `for`, `while` or `loop`"):
        ir(kernel("mut out: DisjointSlice<u32>", "#[unroll]\nlet s = 0u32;"))
    with pytest.raises(OxideError, match=r"`#\[unroll\]` must stand right before"):
        ir(kernel("mut out: DisjointSlice<u32>", "let s = 0u32;\n#[unroll]"))


def test_a_named_constant_count_is_a_hint_left_to_llvm():
    # cuda-oxide's policy constants (`#[unroll(P::UNROLL)]`) are not known while parsing: no annotation, no error.
    text = ir(kernel("mut out: DisjointSlice<u32>", "let mut s = 0u32;\n#[unroll(P::UNROLL)]\nfor i in 0..8u32 { s += i; }"))
    assert "loop_annotation" not in text
