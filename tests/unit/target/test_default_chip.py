"""The chip a build targets when none is named (oxide.api.default_chip): $OXIDE_TARGET, else GPU 0's, with a
9.0 device getting its arch-specific sm_90a (the Hopper GEMM and attention paths), else sm_90."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import oxide.api
import oxide.runtime.driver as driver


def _fake_gpu(monkeypatch: pytest.MonkeyPatch, major: int, minor: int) -> None:
    attrs = SimpleNamespace(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR="major",
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR="minor")
    fake = SimpleNamespace(CUdevice_attribute=attrs, cuDeviceGet=lambda n: (0, n),
                           cuDeviceGetAttribute=lambda a, d: (0, {"major": major, "minor": minor}[a]))
    monkeypatch.delenv("OXIDE_TARGET", raising=False)
    monkeypatch.setattr(driver, "gpu_status", lambda: (True, "1 device"))
    monkeypatch.setattr(driver, "cuda", lambda: fake)
    monkeypatch.setattr(driver, "check", lambda result, what: result[1])


@pytest.mark.parametrize("cc,chip", [((9, 0), "sm_90a"), ((8, 0), "sm_80"), ((8, 9), "sm_89"), ((10, 0), "sm_100")])
def test_a_gpu_gives_its_chip_and_hopper_its_arch_specific_one(monkeypatch, cc, chip):
    _fake_gpu(monkeypatch, *cc)
    assert oxide.api.default_chip() == chip


def test_the_environment_wins_and_no_gpu_means_sm_90(monkeypatch):
    _fake_gpu(monkeypatch, 9, 0)
    monkeypatch.setenv("OXIDE_TARGET", "sm_80")
    assert oxide.api.default_chip() == "sm_80"
    monkeypatch.delenv("OXIDE_TARGET")
    monkeypatch.setattr(driver, "gpu_status", lambda: (False, "no GPU"))
    assert oxide.api.default_chip() == "sm_90"
