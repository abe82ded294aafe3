"""Run an accepted SIMT kernel on the emulator with arguments made from its signature: small random buffers,
small scalars, and a small launch that satisfies its contract where it declares one. Only an exception that
is not one of oxide's own launch, argument, contract or kernel-trap errors is a finding."""

from __future__ import annotations

import math
import signal
from dataclasses import dataclass
from typing import Any

import numpy as np

from oxide.runtime import LaunchConfig
from oxide.runtime.contract import RequirementOverflow
from oxide.runtime.emulator.errors import EmulatorError
from oxide.runtime.errors import OxideRuntimeError
from oxide.runtime.scalars import ATOMIC_ELEMENTS, SCALARS
from oxide.runtime.signature import KernelSpec, ParamSpec

# What oxide raises on purpose when a launch or a kernel is wrong (a mutant may well be either).
EXPECTED = (OxideRuntimeError, EmulatorError, RequirementOverflow)
DEFAULT_BLOCK = {1: (32, 1, 1), 2: (8, 4, 1), 3: (4, 4, 2)}
DEFAULT_GRID = {1: (2, 1, 1), 2: (2, 2, 1), 3: (2, 1, 1)}


class EmulatorTimeout(BaseException):
    """The emulator ran past its budget (a BaseException so that no `except Exception` in oxide swallows it)."""


@dataclass
class Launch:
    """The grid, block, dynamic shared memory and rank of one emulated launch."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared: int
    rank: int

    @property
    def threads(self) -> int:
        """Threads in the whole launch."""
        return math.prod(self.grid) * math.prod(self.block)


def launch_for(spec: KernelSpec) -> Launch:
    """A small launch that keeps the kernel's contract and launch bounds."""
    contract = spec.contract
    rank = int(contract.get("domain", 1)) if str(contract.get("domain", 1)).isdigit() else 1
    rank = rank if rank in DEFAULT_BLOCK else 1
    block = DEFAULT_BLOCK[rank]
    if "block" in contract:
        block = tuple((list(contract["block"]) + [1, 1])[:3])  # type: ignore[assignment]
    elif spec.launch_bounds and math.prod(block) > spec.launch_bounds[0] > 0:
        block = (spec.launch_bounds[0], 1, 1)
    shared = int(contract.get("dynamic_shared", contract.get("dynamic_shared_min", 0)))
    if "dynamic_shared_range" in contract:
        shared = int(contract["dynamic_shared_range"][0])
    return Launch(DEFAULT_GRID[rank], block, shared, rank)


def _dtype(elem: str) -> np.dtype | None:
    scalar = SCALARS.get(ATOMIC_ELEMENTS.get(elem, elem))
    return scalar.dtype if scalar else None


def _scalar(elem: str, launch: Launch, rng: np.random.Generator) -> Any:
    scalar = SCALARS.get(elem)
    if scalar is None or scalar.kind == "int":
        return min(launch.threads, scalar.high if scalar else launch.threads)  # a length-like count
    return True if scalar.kind == "bool" else float(rng.standard_normal())


def argument(p: ParamSpec, launch: Launch, rng: np.random.Generator) -> Any:
    """One argument for parameter `p`."""
    n = launch.threads
    if p.kind == "scalar":
        return _scalar(p.elem, launch, rng)
    if p.kind == "struct":
        return tuple(_scalar(f, launch, rng) for f in p.fields)
    if p.layout:
        return np.zeros(n * int(p.layout.get("size", 1)), np.uint8)  # raw bytes of n struct elements
    dtype = _dtype(p.elem) or np.dtype(np.float32)
    if p.kind == "disjoint" and p.space == "runtime_2d":
        width = launch.grid[0] * launch.block[0]
        return np.zeros((n // width, width), dtype)
    if p.kind == "disjoint":
        return np.zeros(n, dtype)
    data = rng.standard_normal(n) * 4 if dtype.kind == "f" else rng.integers(0, 4, n)
    return data.astype(dtype)


def emulate(artifact: Any, budget_s: float, seed: int = 0) -> tuple[BaseException | None, bool]:
    """Launch every SIMT kernel of `artifact` once on the emulator: (an unexpected exception or None, whether
    the budget ran out)."""
    from oxide.runtime.module import Module

    def expire(*_: Any) -> None:
        raise EmulatorTimeout()

    rng = np.random.default_rng(seed)
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, budget_s)
    try:
        module = Module(artifact, "cpu")
        for spec in artifact.kernels:
            if spec.tile is not None:
                continue
            kernel = module.kernels[spec.entry]
            launch = launch_for(spec)
            args = [argument(p, launch, rng) for p in spec.params]
            try:
                config = LaunchConfig(launch.grid, launch.block, launch.shared, launch.rank)
                if spec.contract:
                    kernel.prepare(config)(*args)
                else:
                    kernel.unchecked(*args, config=config)
            except EXPECTED:
                continue
    except EmulatorTimeout:
        return None, True
    except EXPECTED:
        return None, False
    except Exception as exc:  # noqa: BLE001 - any other exception is what the fuzzer looks for
        return exc, False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return None, False
