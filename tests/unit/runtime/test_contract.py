"""Launch contracts: checked once per configuration against the device and function, `requires` at every
launch; each failure names the field, the expected and the actual value."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime import (ArtifactError, KernelArgumentError, LaunchConfig, LaunchConfig1D, LaunchConfig2D,
                           LaunchContractError, UncontractedLaunchError)
from oxide.runtime.contract import DeviceLimits, parse_requires
from oxide.runtime.signature import KernelSpec, ParamSpec

X, OUT = np.ones(128, np.float32), np.zeros(128, np.float32)


def _raises(field: str, expected, actual, call) -> LaunchContractError:
    with pytest.raises(LaunchContractError) as info:
        call()
    assert (info.value.field, info.value.expected, info.value.actual) == (field, expected, actual), str(info.value)
    assert info.value.kernel in str(info.value)
    return info.value


def test_a_correct_launch_passes_every_check(kernel_of):
    kernel, ex = kernel_of("contracted", "scaled")
    kernel(X, 128, 2.0, OUT, config=LaunchConfig1D(1, 128))
    kernel[1, 128](X, 100, 2.0, OUT)
    assert len(ex.launches) == 2


def test_block_must_equal_the_contract_block(kernel_of):
    kernel, _ = kernel_of("contracted", "scaled")
    _raises("block", (128, 1, 1), (256, 1, 1), lambda: kernel(X, 1, 2.0, OUT, config=LaunchConfig1D(1, 256)))


def test_launch_rank_must_equal_the_domain(kernel_of):
    kernel, _ = kernel_of("contracted", "scaled")
    err = _raises("domain", "a 1-D launch (LaunchConfig1D)", "a 2-D launch",
                  lambda: kernel(X, 1, 2.0, OUT, config=LaunchConfig2D((1, 1), (128, 1))))
    assert str(err).startswith("kernel `scaled`: launch contract `domain` expects a 1-D launch")
    two_d, _ = kernel_of("contracted", "two_d")
    _raises("domain", "a 2-D launch (LaunchConfig2D)", "a 1-D launch", lambda: two_d[4, 32, None, 1024](X, OUT))


def test_requires_relations_are_checked_with_the_actual_values(kernel_of):
    kernel, _ = kernel_of("contracted", "scaled")
    err = _raises("requires", "out.len() >= n", "128 vs 129", lambda: kernel[1, 128](X, 129, 2.0, OUT))
    assert "n = 129, out.len() = 128" in str(err)
    _raises("requires", "x.len() == out.len()", "64 vs 128", lambda: kernel[1, 128](X[:64], 1, 2.0, OUT))


def test_requires_arithmetic_overflow_is_an_error():
    spec = KernelSpec("k", "k", [ParamSpec("a", "u64", "scalar", "u64"), ParamSpec("b", "u64", "scalar", "u64")],
                      {"domain": 1, "requires": "a * b <= 10, a - b >= 0"})
    (product, difference) = parse_requires(spec)
    assert product.evaluate({"a": 2, "b": 5}) == (True, 10, 10)
    from oxide.runtime.contract import RequirementOverflow, check_requires

    with pytest.raises(RequirementOverflow):
        product.evaluate({"a": 1 << 40, "b": 1 << 40})
    _raises("requires", "a - b >= 0", "an overflow", lambda: check_requires("k", [difference], {"a": 1, "b": 2}))


@pytest.mark.parametrize("text, message", [("n >= x", "`x`, which is not an unsigned scalar parameter"),
                                           ("f.len() > 0", "`f` is not a slice parameter"),
                                           ("n >= 1 +", "expression ends early"),
                                           ("n = 1", "cannot read")])
def test_requires_outside_the_grammar_is_an_artifact_error(text, message):
    spec = KernelSpec("k", "k", [ParamSpec("n", "u32", "scalar", "u32"), ParamSpec("x", "i32", "scalar", "i32"),
                                 ParamSpec("f", "f32", "scalar", "f32")], {"domain": 1, "requires": text})
    with pytest.raises(ArtifactError, match=message):
        parse_requires(spec)


def test_dynamic_shared_memory_and_compute_capability(kernel_of):
    two_d, _ = kernel_of("contracted", "two_d")
    cfg = LaunchConfig2D((2, 2), (16, 16), 1024)
    two_d(X, OUT[:1], config=cfg)
    _raises("dynamic_shared", 1024, 0, lambda: two_d(X, OUT, config=LaunchConfig2D((2, 2), (16, 16))))
    old = DeviceLimits((8, 0), (1024, 1024, 64), (1 << 31, 65535, 65535), 1024, 48 << 10, 163 << 10)
    on_a100, _ = kernel_of("contracted", "two_d", limits=old)
    _raises("min_compute_capability", "sm_90 or newer", "sm_80", lambda: on_a100(X, OUT, config=cfg))


def test_device_and_function_limits(kernel_of):
    bounded, _ = kernel_of("contracted", "bounded")
    out = np.zeros(4, np.uint32)
    _raises("launch_bounds", "at most 256 threads per block", 512, lambda: bounded[1, 512](out))
    _raises("grid", "y extent <= 65535 (device limit)", 70000,
            lambda: bounded.unchecked[(1, 70000), 32](out))
    _raises("block", "at most 1024 threads (device limit)", 2048, lambda: bounded.unchecked[1, (64, 32)](out))
    limited, _ = kernel_of("contracted", "bounded", max_threads=128)
    _raises("block", "at most 128 threads (this kernel's register use limits it)", 256, lambda: limited[1, 256](out))
    _raises("grid/block", "every extent >= 1", "grid (0, 1, 1), block (32, 1, 1)", lambda: bounded[0, 32](out))


def test_preparation_runs_once_per_configuration(kernel_of, monkeypatch):
    kernel, _ = kernel_of("contracted", "scaled")
    prepared = kernel.prepare(LaunchConfig1D(1, 128))
    calls = []
    import oxide.runtime.kernel as kernel_module

    monkeypatch.setattr(kernel_module, "prepare", lambda *a: calls.append(a) or 0)
    for _ in range(3):
        kernel(X, 1, 2.0, OUT, config=LaunchConfig1D(1, 128))
        prepared(X, 1, 2.0, OUT)
    assert calls == [] and kernel.prepare(LaunchConfig1D(1, 128)) is prepared


def test_a_prepared_launch_belongs_to_one_kernel(kernel_of):
    scaled, _ = kernel_of("contracted", "scaled")
    bounded, _ = kernel_of("contracted", "bounded")
    prepared = bounded.prepare(LaunchConfig1D(1, 128))
    with pytest.raises(KernelArgumentError, match="this PreparedLaunch belongs to `bounded`"):
        scaled(X, 1, 2.0, OUT, config=prepared)


def test_uncontracted_kernels_launch_only_through_unchecked(kernel_of):
    vecadd, ex = kernel_of("vecadd", "vecadd")
    a = np.ones(4, np.float32)
    with pytest.raises(UncontractedLaunchError, match=r"kernel `vecadd` has no #\[launch_contract\].*"
                                                      r"mod.vecadd.unchecked\[grid, block\]"):
        vecadd(a, a, np.zeros(4, np.float32), config=LaunchConfig1D(1, 32))
    with pytest.raises(UncontractedLaunchError):
        vecadd[1, 32](a, a, np.zeros(4, np.float32))
    with pytest.raises(UncontractedLaunchError):
        vecadd.prepare(LaunchConfig1D(1, 32))
    vecadd.unchecked[1, 32](a, a, np.zeros(4, np.float32))
    vecadd.unchecked(a, a, np.zeros(4, np.float32), config=LaunchConfig.of((1, 2), (32, 2)))
    assert [c.rank for _, c, _ in ex.launches] == [1, 2]
