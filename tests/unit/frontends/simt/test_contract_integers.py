"""Launch contract integers reach the kernel's attribute in the form the runtime reads."""

from __future__ import annotations

import pytest

from oxide.frontends.simt.compile import compile_rust
from oxide.dialects.context import make_context

_KERNEL = "#[kernel]\n#[launch_contract(domain = 1, {field})]\npub fn k(mut out: DisjointSlice<f32>) {{}}\n"


@pytest.mark.parametrize("field", ["min_compute_capability = 90", "min_compute_capability = (9, 0)"])
def test_min_compute_capability_is_a_major_minor_pair(field: str) -> None:
    # The runtime compares (major, minor) tuples; `NN` (as in sm_NN) once reached it as a bare integer.
    result = compile_rust(_KERNEL.format(field=field), "k.rs", make_context())
    assert "min_compute_capability = array<i32: 9, 0>" in str(result.module)


def test_largest_dynamic_shared_is_accepted() -> None:
    result = compile_rust(_KERNEL.format(field="dynamic_shared = 4294967295"), "k.rs", make_context())
    assert "dynamic_shared = 4294967295 : i64" in str(result.module)
