"""Inline PTX that ptxas refuses is a located error at the `ptx_asm!` / `simt.inline_ptx` that wrote it; a
ptxas error outside every inline-asm block is an internal error (PTX oxide generated)."""

from __future__ import annotations

import pytest

import oxide
from oxide.backend.inline_ptx_check import InlinePtxSite, _diagnose, find_ptxas
from oxide.diagnostics import OxideError, SourceLoc

needs_ptxas = pytest.mark.skipif(find_ptxas() is None, reason="ptxas is not installed")

_TWO_ASMS = """#[kernel]
pub unsafe fn k(n: u32, out: &mut [u32]) {
    let x: u32;
    unsafe { ptx_asm!("mov.u32 %0, %1;", out("=r") x, in("r") n); }
    let y: u32;
    unsafe { ptx_asm!("add.u32 %0, %1 %1;", out("=r") y, in("r") x); }
    out[0] = y;
}
"""


@needs_ptxas
def test_a_template_ptxas_refuses_is_located_at_its_ptx_asm():
    with pytest.raises(OxideError) as caught:
        oxide.compile(_TWO_ASMS, "asm.rs")
    (diagnostic,) = caught.value.diagnostics
    assert str(diagnostic.loc) == "asm.rs:6:14"
    assert diagnostic.message.startswith("ptxas refuses this inline PTX: Parsing error near '%r1': syntax error "
                                         "(in `add.u32 %r")


@needs_ptxas
def test_valid_templates_compile():
    assert "mov.u32" in oxide.compile(_TWO_ASMS.replace("%1 %1;", "%1, %1;"), "asm.rs").ptx["sm_90"]


_PTX = """.entry k()
{
	// begin inline asm
	mov.u32 %r1, %r2;
	// end inline asm
	add.s32 %r3, %r1, 1;
	// begin inline asm
	add.u32 %r4, %r3 %r3;
	// end inline asm
}""".splitlines()
_SITES = [InlinePtxSite(SourceLoc("k.rs", 4, 14), "mov.u32 $0, $1;"),
          InlinePtxSite(SourceLoc("k.rs", 6, 14), "add.u32 $0, $1 $1;")]


def test_the_error_line_picks_the_template_that_made_it():
    (diagnostic,) = _diagnose(_SITES, _PTX, "ptxas k.ptx, line 8; fatal   : Parsing error near '%r3': syntax error")
    assert diagnostic.loc == SourceLoc("k.rs", 6, 14)
    assert "Parsing error near '%r3'" in diagnostic.message and "(in `add.u32 %r4, %r3 %r3;`)" in diagnostic.message


def test_an_error_outside_inline_asm_is_an_internal_error():
    (diagnostic,) = _diagnose(_SITES, _PTX, "ptxas k.ptx, line 6; error   : Unknown symbol '%r1'")
    assert diagnostic.loc is None and diagnostic.message.startswith("internal error: ptxas refused the PTX oxide "
                                                                   "generated")


def test_an_unterminated_template_is_blamed_for_the_line_it_runs_into():
    lines = [".entry k()", "{", "\t// begin inline asm", "\txxxx", "\t// end inline asm", "\tret;", "}"]
    sites = [InlinePtxSite(SourceLoc("k.rs", 5, 14), "xxxx")]
    (diagnostic,) = _diagnose(sites, lines, "ptxas k.ptx, line 6; error   : Unknown symbol 'ret'")
    assert diagnostic.loc == SourceLoc("k.rs", 5, 14) and "(in `xxxx`)" in diagnostic.message
