"""Items declared in function bodies: a const belongs to the function that declares it (two kernels may each
have their own `const TILE`), and two different definitions of one struct, enum or function name are a
located error instead of one silently replacing the other."""

from __future__ import annotations

import pytest

from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, run

TWO_KERNELS = """
use cuda_device::{kernel, thread};
const N: u32 = 7;
#[kernel]
pub unsafe fn a(out: &mut [u32]) {
    const N: u32 = 4096;
    let arr = [1u32; N as usize / 1024];
    out[0] = N + arr.len() as u32;
}
#[kernel]
pub unsafe fn b(out: &mut [u32]) {
    const N: u32 = 1024;
    fn twice() -> u32 { N * 2 }
    out[0] = N + twice();
}
#[kernel]
pub unsafe fn c(out: &mut [u32]) {
    out[0] = N;
}
"""


@pytest.mark.parametrize("entry, want", [("a", 4096 + 4), ("b", 1024 + 2048), ("c", 7)])
def test_each_function_reads_its_own_const(entry, want):
    from tests.unit.runtime.emulator.helpers import run as emulate
    import numpy as np

    out = np.zeros(1, np.uint32)
    emulate(TWO_KERNELS, 1, 1, [out], entry=entry)
    assert out[0] == want


def test_the_same_const_in_two_kernels_is_one_item():
    src = TWO_KERNELS.replace("const N: u32 = 1024;", "const N: u32 = 4096;").replace("const N: u32 = 7;", "")
    src = src.replace("out[0] = N;\n}", "out[0] = 1;\n}")
    assert "gpu.func @b" in str(build(src).module)


def test_consts_of_one_name_in_two_blocks_of_one_function():
    body = "{ const N: u32 = 1; out[0] = N; }\n{ const N: u32 = 2; out[1] = N * 10; }"
    assert run("", body, [], n=2) == [1, 20]


def test_two_different_structs_of_one_name_are_an_error():
    src = ("#[kernel]\npub unsafe fn a(out: &mut [u32]) {\nstruct P { x: u32 }\nout[0] = P { x: 1 }.x;\n}\n"
           "#[kernel]\npub unsafe fn b(out: &mut [u32]) {\nstruct P { y: u32 }\nout[0] = P { y: 2 }.y;\n}\n")
    with pytest.raises(OxideError, match=r"`P` is defined twice with different definitions \(the first at k.rs:3:1\)"):
        build(src)


def test_a_local_const_in_a_loop_body_still_works():
    assert run("", "for i in 0..2usize { const K: u32 = 5; out[i] = K * i as u32; }", [], n=2) == [0, 5]


def test_equal_texts_in_two_kernels_read_their_own_consts():
    # `BYTES` is written the same in both kernels but means two values: each kernel's `SIZE` is its own.
    from tests.unit.runtime.emulator.helpers import run as emulate
    import numpy as np

    src = ("#[kernel]\npub unsafe fn a(out: &mut [u32]) {\nconst SIZE: u32 = 4096;\nconst BYTES: u32 = SIZE * 4;\n"
           "out[0] = BYTES;\n}\n#[kernel]\npub unsafe fn b(out: &mut [u32]) {\nconst SIZE: u32 = 1024;\n"
           "const BYTES: u32 = SIZE * 4;\nout[0] = BYTES;\n}\n")
    for entry, want in (("a", 16384), ("b", 4096)):
        out = np.zeros(1, np.uint32)
        emulate(src, 1, 1, [out], entry=entry)
        assert out[0] == want
