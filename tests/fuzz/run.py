"""One fuzz run: mutants [start, start + inputs) of a seed through a worker pool, into a Report; then, if
asked, each bucket's reproducer reduced through the same pool."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.fuzz.generate import Generator, Mutant
from tests.fuzz.pool import Job, Pool
from tests.fuzz.reduce import reduce
from tests.fuzz.report import Report
from tests.fuzz.worker import DEFAULT_ORACLE

DEFAULT_TIME_LIMIT_S = 20.0


def default_jobs() -> int:
    """The CPU count this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def fuzz(seed: int, inputs: int, jobs: int, out: Path | None = None, start: int = 0,
         time_limit_s: float = DEFAULT_TIME_LIMIT_S, progress: Callable[[Report], None] | None = None,
         reduce_calls: int = 0, oracle: str = DEFAULT_ORACLE) -> Report:
    """Run `inputs` mutants of `seed` from index `start` through `oracle` (module:function); reduce each
    bucket's reproducer with at most `reduce_calls` oracle calls (0: not at all); write the buckets to `out`
    if given."""
    generator = Generator()
    mutants: dict[int, Mutant] = {}

    def job_stream() -> Iterator[Job]:
        for index in range(start, start + inputs):
            mutant = generator.mutant(seed, index)
            mutants[index] = mutant
            yield Job(index, mutant.stem + mutant.suffix, mutant.text)

    report = Report(seed)
    began = time.monotonic()
    with Pool(jobs, time_limit_s, oracle) as pool:
        for job, outcome in pool.run(job_stream()):
            report.add(mutants.pop(job.key), outcome)
            report.seconds = time.monotonic() - began
            if progress is not None:
                progress(report)
        report.seconds = time.monotonic() - began  # the fuzzing alone: the summary's rate is inputs per second
        if reduce_calls > 0:
            for bucket in report.buckets.values():
                name = bucket.smallest.stem + bucket.smallest.suffix
                bucket.reduced = reduce(pool, bucket.smallest.text, name, bucket.finding.bucket, reduce_calls).text
    if out is not None:
        report.write(out)
    return report
