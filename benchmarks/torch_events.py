"""Timing on the GPU with torch's CUDA events, shared by the benchmarks that launch on torch's stream
(tile/run.py, hopper/run.py): events around BATCH back-to-back launches, and the median of many such samples
after warm-up.

Each batch starts behind a sleep kernel (PRIME_CYCLES, about a millisecond), so the GPU is still busy while
the host queues the start event and the batch: the events then time the GPU's work alone. Without it the
first launch's host cost (tens of microseconds in Python for oxide and Triton alike) lands between the start
event and the first kernel and is charged to the kernel: a tenth of it per launch, 1-5% of a 70 us kernel, and
more for the launcher with the slower host path. The host cost is measured on its own (host_launch_us).
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

import torch

BATCH = 10
# GPU clock cycles of the sleep kernel ahead of each batch: about 1 ms at the H200's 1.98 GHz, longer than the
# host takes to queue a batch of the slowest launcher timed here.
PRIME_CYCLES = 2_000_000


def time_ms(fn: Callable[[], None], runs: int) -> float:
    """Median milliseconds per launch: events around BATCH back-to-back launches, `runs` samples."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    return statistics.median(_batch_ms(fn) for _ in range(runs))


def _batch_ms(fn: Callable[[], None]) -> float:
    """Milliseconds per launch over one batch of BATCH back-to-back launches, between two events."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(PRIME_CYCLES)
    start.record()
    for _ in range(BATCH):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / BATCH


def time_interleaved_ms(fns: dict[str, Callable[[], None]], runs: int) -> dict[str, float]:
    """Median milliseconds per launch of each of `fns`, sampled in turn (one batch of each per round), so that
    clock and power drift over the run affects them alike."""
    for fn in fns.values():
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            samples[name].append(_batch_ms(fn))
    return {name: statistics.median(values) for name, values in samples.items()}


def host_launch_us(launch: Callable[[], None], count: int = 200) -> float:
    """Host microseconds per launch (argument checks, the launcher's own work, the driver call), launches queued
    back to back behind a sleep kernel long enough that the queue never waits for the GPU."""
    torch.cuda.synchronize()
    torch.cuda._sleep(PRIME_CYCLES * count // 10)
    start = time.perf_counter()
    for _ in range(count):
        launch()
    spent = time.perf_counter() - start
    torch.cuda.synchronize()
    return spent / count * 1e6
