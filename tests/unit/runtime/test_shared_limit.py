"""Dynamic shared memory past 48 KiB: the runtime raises the function's limit (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_
SHARED_SIZE_BYTES) to what the artifact records, after checking static + dynamic bytes against the device's
opt-in limit; past it, a SharedMemoryLimitError naming both numbers, before anything launches."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.artifact import Artifact
from oxide.runtime.contract import check_shared_fits
from oxide.runtime.emulated import EMULATED_LIMITS
from oxide.runtime.errors import LaunchContractError, SharedMemoryLimitError
from oxide.runtime.module import load
from tests.unit.runtime.tile_artifacts import KERNELS, module, program, spec, _ptx


def test_check_names_both_numbers():
    check_shared_fits("k", 1024, 227 * 1024 - 1024, EMULATED_LIMITS)  # exactly the limit fits
    with pytest.raises(SharedMemoryLimitError) as caught:
        check_shared_fits("k", 2048, 227 * 1024, EMULATED_LIMITS)
    error = caught.value
    assert isinstance(error, LaunchContractError) and error.field == "dynamic_shared"
    assert (error.static, error.dynamic, error.limit) == (2048, 227 * 1024, 227 * 1024)
    assert f"<= {227 * 1024} bytes" in str(error) and f"got {2048 + 227 * 1024}" in str(error)


def _artifact(tmp_path, dynamic: int):
    params, body = KERNELS["add"]
    text = module(", ".join(f"%{p}: {mlir}" for p, _, mlir in params), body, "add", 4)
    kernel = dataclasses.replace(spec("add"), tile={"warps": 4, "dynamic_shared": dynamic})
    return Artifact("add", [kernel], {"sm_90": _ptx(kernel)}, program(text)).write(tmp_path)


def test_the_function_limit_is_raised_and_each_launch_passes_the_bytes(fake, tmp_path):
    mod = load(_artifact(tmp_path, 100 * 1024), target="gpu")
    z, x, y = (mod.to_device(np.zeros(128, np.float32)) for _ in range(3))
    mod.add(oxide.tile.partition(z, (128,)), x, y, 1.0)
    (launch,) = fake.launches
    assert list(fake.func_attributes.values()) == [100 * 1024]
    assert launch["shared"] == 100 * 1024


def test_more_than_the_device_allows_is_refused_before_launching(fake, tmp_path):
    mod = load(_artifact(tmp_path, 228 * 1024), target="gpu")
    z, x, y = (mod.to_device(np.zeros(128, np.float32)) for _ in range(3))
    with pytest.raises(SharedMemoryLimitError, match=f"<= {227 * 1024} bytes .*got {228 * 1024}"):
        mod.add(oxide.tile.partition(z, (128,)), x, y, 1.0)
    assert fake.launches == [] and fake.func_attributes == {}
