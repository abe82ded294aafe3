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
    samples = []
    for _ in range(runs):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(BATCH):
            fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) / BATCH)
    return statistics.median(samples)


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
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(BATCH):
                fn()
            stop.record()
            stop.synchronize()
            samples[name].append(start.elapsed_time(stop) / BATCH)
    return {name: statistics.median(values) for name, values in samples.items()}
