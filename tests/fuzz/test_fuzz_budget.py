"""The CI fuzz budget: a fixed seed and a few thousand mutants (about 2 minutes on 2 cores). Fails listing
every failure bucket with its reproducer; `python -m tests.fuzz` is the long run (see README, Fuzzing)."""

import os
from pathlib import Path

from tests.fuzz.run import default_jobs, fuzz

SEED = 2026
# Sized from measured throughput (about 50 inputs/s per core) to stay under 3 minutes on 2 cores with room
# for worker restarts; OXIDE_FUZZ_INPUTS overrides it.
INPUTS = int(os.environ.get("OXIDE_FUZZ_INPUTS", "5000"))


def test_fuzz_budget_finds_no_failure(tmp_path: Path):
    report = fuzz(SEED, INPUTS, default_jobs(), tmp_path / "fuzz")
    print(report.summary())
    assert not report.buckets, "the fuzzer found failures (reproducers written beside report.txt):\n" + report.text()
