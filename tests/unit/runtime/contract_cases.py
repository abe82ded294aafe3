"""Every launch-contract failure and an overlap, as cases shared by the emulator tests (test_emulated.py) and
the GPU tests (tests/gpu/test_runtime_contracts.py): the same launch must fail the same way on both."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

SOURCE = """
use cuda_device::{kernel, launch_bounds, launch_contract, thread, DisjointSlice, Index2D};

#[kernel]
#[launch_bounds(128)]
#[launch_contract(domain = 1, block = (128, 1, 1), requires = (out.len() >= n, x.len() == out.len()))]
pub fn scaled(x: &[f32], n: u32, factor: f32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        if i < n as usize {
            *o = x[i] * factor;
        }
    }
}

#[kernel]
#[launch_bounds(256)]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn bounded(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 1;
    }
}

#[kernel]
#[launch_contract(domain = 2, dynamic_shared = 1024)]
pub fn two_d(x: &[f32], mut out: DisjointSlice<f32, Index2D<16>>) {
    if let Some(idx) = thread::index_2d::<16>() {
        if let Some(o) = out.get_mut(idx) {
            *o = x[0];
        }
    }
}

#[kernel]
#[launch_contract(domain = 1, min_compute_capability = (12, 0))]
pub fn future(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 2.0;
    }
}
"""


def _arrays(module: Any, n: int = 128) -> tuple[Any, Any]:
    return module.to_device(np.ones(n, np.float32)), module.zeros(n, np.float32)


def _scaled_block(m: Any) -> None:
    x, out = _arrays(m)
    m.scaled[1, 256](x, 1, 2.0, out)


def _scaled_domain(m: Any) -> None:
    x, out = _arrays(m)
    m.scaled[(1, 1), (128, 1)](x, 1, 2.0, out)


def _scaled_requires(m: Any) -> None:
    x, out = _arrays(m)
    m.scaled[1, 128](x, 200, 2.0, out)


def _scaled_requires_len(m: Any) -> None:
    x, out = _arrays(m)
    m.scaled[1, 128](x[0:64], 1, 2.0, out)


def _bounded_launch_bounds(m: Any) -> None:
    m.bounded[1, 512](m.zeros(4, np.uint32))


def _bounded_coordinates(m: Any) -> None:
    m.bounded[(1 << 31) - 1, 256](m.zeros(4, np.uint32))


def _two_d_dynamic_shared(m: Any) -> None:
    x, out = _arrays(m)
    m.two_d[(1, 1), (16, 16), None, 512](x, out)


def _future_compute_capability(m: Any) -> None:
    m.future[1, 32](m.zeros(32, np.float32))


def _scaled_overlap(m: Any) -> None:
    x, _ = _arrays(m)
    m.scaled[1, 128](x, 1, 2.0, x)


# (name, launch, exception class name, contract field or None, message fragment)
CASES: list[tuple[str, Callable[[Any], None], str, str | None, str]] = [
    ("block", _scaled_block, "LaunchContractError", "block", "expects (128, 1, 1), got (256, 1, 1)"),
    ("domain", _scaled_domain, "LaunchContractError", "domain", "expects a 1-D launch (LaunchConfig1D), got a 2-D"),
    ("requires", _scaled_requires, "LaunchContractError", "requires", "expects out.len() >= n, got 128 vs 200"),
    ("requires-len", _scaled_requires_len, "LaunchContractError", "requires", "x.len() == out.len(), got 64 vs 128"),
    ("launch_bounds", _bounded_launch_bounds, "LaunchContractError", "launch_bounds", "at most 256 threads"),
    ("coordinates", _bounded_coordinates, "LaunchContractError", "coordinates", "grid*block <= 2^32 on axis x"),
    ("dynamic_shared", _two_d_dynamic_shared, "LaunchContractError", "dynamic_shared", "expects 1024, got 512"),
    ("min_compute_capability", _future_compute_capability, "LaunchContractError", "min_compute_capability",
     "expects sm_120 or newer"),
    ("overlap", _scaled_overlap, "OverlapError", None, "argument `out` overlaps argument `x`"),
]


def check_case(module: Any, launch: Callable[[Any], None], error: str, field: str | None, fragment: str) -> None:
    """Run one case and assert it fails as stated (and launched nothing)."""
    import pytest

    import oxide.runtime as rt

    with pytest.raises(getattr(rt, error)) as info:
        launch(module)
    assert fragment in str(info.value), str(info.value)
    if field is not None:
        assert info.value.field == field
