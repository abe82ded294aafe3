"""Associated consts of types and of generic parameters (`P::TAG`, `Config::SCALE`), in expressions, in
compile-time integers and in `#[launch_bounds(...)]` of a generic kernel, resolved per instance."""

from __future__ import annotations

import pytest

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, run

_POLICIES = """
trait Policy { const MAX_THREADS: u32; const TAG: u32; const ITEMS: usize; }
enum Small {}
impl Policy for Small { const MAX_THREADS: u32 = 64; const TAG: u32 = 0x55; const ITEMS: usize = 2; }
enum Wide {}
impl Policy for Wide { const MAX_THREADS: u32 = 256; const TAG: u32 = 0xF0; const ITEMS: usize = 4; }
struct Config;
impl Config { const SCALE: u32 = 3; }
#[kernel]
#[launch_bounds(P::MAX_THREADS, 2)]
pub unsafe fn transform<P: Policy>(out: &mut [u32]) {
    let base = P::ITEMS;
    let table = [P::TAG; P::ITEMS];
    out[0] = (base as u32) * Config::SCALE ^ table[0];
}
"""


def test_generic_parameter_consts_resolve_per_instance():
    result = build(_POLICIES, {"transform": [["Small"], ["Wide"]]})
    bounds = {k.entry: k.launch_bounds for k in result.kernels}
    assert bounds == {"transform_Small": [64, 2], "transform_Wide": [256, 2]}
    text = str(result.module)
    assert "simt.launch_bounds = array<i32: 64, 2>" in text and "simt.launch_bounds = array<i32: 256, 2>" in text


def test_type_consts_in_expressions():
    extra = "struct Config;\nimpl Config { const SCALE: u32 = 3; const N: usize = 2; }"
    assert run("", "let a = [Config::SCALE; Config::N];\nout[0] = a[1] * Config::SCALE;", [], extra=extra)[0] == 9


def test_launch_bounds_reject_expressions():
    with pytest.raises(OxideError, match="takes compile-time integers"):
        build("#[kernel]\n#[launch_bounds(64 * 2)]\npub fn k() {}")
