"""Timing on the GPU with torch's CUDA events, shared by the benchmarks that launch on torch's stream
(tile/run.py, hopper/run.py): events around BATCH back-to-back launches, so the host's launch cost hides
behind the GPU's work, and the median of many such samples after warm-up."""

from __future__ import annotations

import statistics
from typing import Callable

import torch

BATCH = 10


def time_ms(fn: Callable[[], None], runs: int) -> float:
    """Median milliseconds per launch: events around BATCH back-to-back launches, `runs` samples."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    return statistics.median(_batch_ms(fn) for _ in range(runs))


def _batch_ms(fn: Callable[[], None]) -> float:
    """Milliseconds per launch over one batch of BATCH back-to-back launches, between two events."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
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
