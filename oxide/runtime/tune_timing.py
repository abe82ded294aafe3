"""How the tuner times one candidate: CUDA events on the candidate's stream (GPU), or the wall clock
(emulator). A timer is any callable `timer(run, launch) -> milliseconds per launch`, so tests inject a fake
one and a user can bring their own (an L2 flush between launches, a longer warm-up)."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

Launch = Callable[[], Any]


class Timer(Protocol):
    """Milliseconds per launch of `launch`, a candidate's launch closure (run: its CandidateRun)."""

    def __call__(self, run: Any, launch: Launch) -> float: ...


@dataclass(frozen=True)
class EventTimer:
    """The median over `reps` samples of CUDA-event time per launch, each sample `batch` launches between two
    events on the candidate's stream, after `warmup` launches (which also load the module and fill caches).
    Launches must be stream-ordered on `run.stream`, or the events time nothing."""

    warmup: int = 5
    reps: int = 10
    batch: int = 5

    def __call__(self, run: Any, launch: Launch) -> float:
        from oxide.runtime.stream import Event

        stream = run.stream
        for _ in range(self.warmup):
            launch()
        start, stop = Event(stream.device), Event(stream.device)  # reused: one pair per candidate
        samples = []
        for _ in range(self.reps):
            stream.record(start)
            for _ in range(self.batch):
                launch()
            stream.record(stop)
            stop.synchronize()
            samples.append(start.elapsed_ms(stop) / self.batch)
        stream.synchronize()  # a kernel error surfaces here, naming the kernel
        return statistics.median(samples)


@dataclass(frozen=True)
class WallTimer:
    """The median wall-clock time per launch, for the emulator (whose launches are synchronous): it ranks
    candidates by emulation cost, which says nothing about a GPU, so its records are keyed to "emulator"."""

    warmup: int = 1
    reps: int = 3

    def __call__(self, run: Any, launch: Launch) -> float:
        for _ in range(self.warmup):
            launch()
        samples = []
        for _ in range(self.reps):
            start = time.perf_counter()
            launch()
            samples.append((time.perf_counter() - start) * 1e3)
        return statistics.median(samples)
