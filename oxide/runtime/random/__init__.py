"""Counter-based random numbers (Philox4x32-10) for tile programs: `rand(shape, seed)` and
`randn(mean, std, shape, seed)`, as cutile-rs's host API offers them (its dropout example).

The stream is defined by philox.py (numpy, exact uint32 arithmetic). On a GPU the numbers are written there
by the kernels of philox.rs, shipped compiled in this directory (the runtime imports nothing of the compiler;
`python -m oxide.tools.random_kernels` rebuilds the artifact and a test checks it is current); with no GPU,
or `target="cpu"`, they are computed by numpy. Uniforms are the same bits either way; normals agree within
the bound docs/tile-runtime.md states.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from oxide.runtime.config import LaunchConfig1D
from oxide.runtime.module import Module, load, resolve_target
from oxide.runtime.random import philox

ARTIFACT = Path(__file__).with_name("philox.oxide.json")
SOURCE = Path(__file__).with_name("philox.rs")
THREADS = 256


@functools.lru_cache(maxsize=None)
def kernels(device: int = 0) -> Module:
    """The shipped Philox kernels, loaded on GPU `device` (the artifact holds PTX only: without a GPU the host
    computes the stream with numpy)."""
    return load(ARTIFACT, "gpu", device)


def _shape(shape: int | Sequence[int]) -> tuple[int, ...]:
    dims = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not all(isinstance(d, (int, np.integer)) and d >= 0 for d in dims):
        raise ValueError(f"a shape is a sequence of non-negative integers, got {shape!r}")
    return tuple(int(d) for d in dims)


def _seed(seed: int | None) -> int:
    """The seed as the 64-bit key (None: a fresh one from the operating system's entropy)."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    philox.split_seed(int(seed))  # range check
    return int(seed)


def generate(module: Module, kernel: str, shape: tuple[int, ...], seed: int, *scalars: float) -> Any:
    """Launch `kernel` of the loaded Philox module (philox_uniform, philox_normal with mean and std) for a
    fresh f32 buffer of `shape` on the module's device; return the buffer."""
    count = int(np.prod(shape, dtype=np.int64))
    out = module.empty(shape, np.float32)
    if count:
        low, high = philox.split_seed(seed)
        config = LaunchConfig1D(-(-count // THREADS), THREADS)
        getattr(module, kernel).prepare(config)(np.uint32(low), np.uint32(high), *map(np.float32, scalars), out)
    return out


def rand(shape: int | Sequence[int], seed: int | None = None, *, target: str = "auto", device: int = 0) -> Any:
    """f32 uniforms in [0, 1) (multiples of 2^-24): a DeviceBuffer on the GPU, a numpy array on the host."""
    dims, key = _shape(shape), _seed(seed)
    if resolve_target(target)[0] == "cpu":
        return philox.uniform(int(np.prod(dims, dtype=np.int64)), key).reshape(dims)
    return generate(kernels(device), "philox_uniform", dims, key)


def randn(mean: float, std: float, shape: int | Sequence[int], seed: int | None = None, *, target: str = "auto",
          device: int = 0) -> Any:
    """f32 normals of mean `mean` and standard deviation `std` (Box-Muller on the Philox stream): a
    DeviceBuffer on the GPU, a numpy array on the host."""
    dims, key = _shape(shape), _seed(seed)
    if resolve_target(target)[0] == "cpu":
        return philox.normal(int(np.prod(dims, dtype=np.int64)), key, mean, std).reshape(dims)
    return generate(kernels(device), "philox_normal", dims, key, mean, std)


__all__ = ["generate", "kernels", "philox", "rand", "randn"]
