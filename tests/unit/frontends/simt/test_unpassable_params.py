"""Kernel parameters the runtime cannot pass from Python (128-bit integers as scalars, struct or array
fields, or slice elements) are located compile errors naming the kernel and the parameter, not a ValueError
when the artifact is written or a KeyError at the first launch."""

from __future__ import annotations

import subprocess
import sys

import pytest

import oxide
from oxide.diagnostics import OxideError

_HEAD = """use cuda_device::{kernel, thread, DisjointSlice};
#[derive(Clone, Copy)]
pub struct Wide { a: i128 }
"""


@pytest.mark.parametrize("param, why", [
    ("x: i128", "the runtime has no i128 values"),
    ("x: u128", "the runtime has no i128 values"),
    ("w: Wide", "the runtime has no i128 values"),
    ("pair: (u64, i128)", "the runtime has no i128 values"),
    ("arr: [u128; 2]", "the runtime has no i128 values"),
    ("s: &[i128]", "the runtime has no arrays of i128 elements"),
])
def test_128_bit_parameters_are_located_errors(param, why):
    source = _HEAD + f"""#[kernel]
pub fn k({param}, mut out: DisjointSlice<u64>) {{
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {{ *o = 1; }}
}}
"""
    with pytest.raises(OxideError) as caught:
        oxide.compile(source, "wide.rs")
    (diagnostic,) = caught.value.diagnostics
    assert str(diagnostic.loc) == "wide.rs:5:1"
    assert diagnostic.message == (f"kernel `k`: parameter `{param}` cannot be passed from Python: {why}; pass a "
                                  "128-bit integer as two u64 halves (`lo: u64, hi: u64`)")


def test_128_bit_values_inside_a_kernel_still_compile():
    source = _HEAD + """#[kernel]
pub fn k(lo: u64, hi: u64, mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let wide = ((hi as u128) << 64) | lo as u128;
    if let Some(o) = out.get_mut(idx) { *o = (wide >> 32) as u64; }
}
"""
    assert oxide.compile(source, "wide.rs").ptx


def test_oxide_build_reports_it_with_exit_1(tmp_path):
    path = tmp_path / "wide.rs"
    path.write_text(_HEAD + "#[kernel]\npub fn k(x: i128, mut out: DisjointSlice<u64>) {}\n")
    run = subprocess.run([sys.executable, "-m", "oxide.tools.oxide_cli", "build", str(path)], capture_output=True,
                         text=True, env={"OXIDE_CACHE_DIR": str(tmp_path / "cache"), "PATH": ""})
    assert run.returncode == 1, run.stderr
    assert "wide.rs:5:1: error: kernel `k`: parameter `x: i128` cannot be passed from Python" in run.stderr
    assert "Traceback" not in run.stderr


def test_an_f16_slice_compiles_and_passing_it_is_a_kernel_argument_error():
    from oxide.runtime import KernelArgumentError
    from oxide.runtime.marshal import Binder

    source = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn halves(h: &[f16], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) { *o = h[i] as f32; }
}
"""
    spec = oxide.compile(source, "halves.rs").artifact(source).kernels[0]
    import numpy as np

    binder = Binder(spec, gpu=False)  # the kernel loads; only passing `h` is refused
    with pytest.raises(KernelArgumentError, match=r"kernel `halves`, argument `h: &\[f16\]`: the runtime has no "
                                                  r"arrays of f16 elements; this kernel cannot be launched from Python"):
        binder.bind([np.zeros(4, np.float16), np.zeros(4, np.float32)], allow_host=True)
    assert "the runtime has no arrays of f16 elements" in binder.mismatch([np.zeros(4, np.float16), np.zeros(4)])


def test_an_array_for_a_pointer_to_128_bit_integers_is_a_kernel_argument_error():
    import numpy as np

    from oxide.runtime import KernelArgumentError
    from oxide.runtime.marshal import Binder

    source = "#[kernel]\npub unsafe fn k(p: *mut u128) {\n}\n"  # a fuzz finding: KeyError in element_of
    spec = oxide.compile(source, "p.rs").artifact(source).kernels[0]
    with pytest.raises(KernelArgumentError, match=r"kernel `k`, argument `p: \*mut u128`: the runtime has no arrays "
                                                  r"of u128 elements; pass a raw device address"):
        Binder(spec, gpu=False).bind([np.zeros(4, np.uint64)], allow_host=True)
