"""Every launch-contract failure and an overlap on the GPU: the same cases, with the same errors, as on the
emulator (tests/unit/runtime/contract_cases.py). None of them reaches the device."""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.runtime.contract_cases import CASES, SOURCE, check_case


@pytest.fixture(scope="module")
def contracted(cuda, tmp_path_factory):
    # The source and its file name are fixed, so a cache carried from a machine with the compiler holds it.
    source = tmp_path_factory.mktemp("contracts") / "contracts.rs"
    source.write_text(SOURCE)
    try:
        return oxide.load(source, target="gpu")
    except OxideError as exc:
        pytest.skip(f"no compiler here and no cached build: {exc}")


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_contract_failure_on_the_gpu(contracted, case):
    _, launch, error, field, fragment = case
    check_case(contracted, launch, error, field, fragment)


def test_the_contracted_kernels_run_when_launched_correctly(contracted):
    x, out = contracted.to_device(np.full(128, 3.0, np.float32)), contracted.zeros(128, np.float32)
    contracted.scaled[1, 128](x, 100, 2.0, out)
    assert out.get().tolist() == [6.0] * 100 + [0.0] * 28
    shared_in, shared_out = contracted.to_device(np.full(4, 5.0, np.float32)), contracted.zeros(256, np.float32)
    contracted.two_d[(1, 1), (16, 16), None, 1024](shared_in, shared_out)
    assert shared_out.get().tolist() == [5.0] * 256
