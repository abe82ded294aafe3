"""The parent's watch over workers: a crash, a hang and an escaped exception each become a finding, the
worker is replaced, and the inputs after it still run."""

from tests.fuzz.outcome import ACCEPTED, CRASH, FAILED, HANG, UNCAUGHT
from tests.fuzz.pool import Job, Pool

FAKE = "tests.fuzz.fake_targets:misbehave"


def run(texts: list[str], time_limit_s: float = 3.0) -> dict[int, object]:
    with Pool(1, time_limit_s, FAKE) as pool:
        results = {job.key: outcome for job, outcome in pool.run(Job(i, "in.rs", t) for i, t in enumerate(texts))}
        assert pool.restarts == sum(t in ("abort", "segfault", "hang") for t in texts)
    return results


def test_crashes_hangs_and_escapes_are_findings_and_the_run_goes_on():
    texts = ["fine", "abort", "fine", "segfault", "hang", "raise", "fine"]
    results = run(texts)
    assert [results[i].status for i in range(len(texts))] == [ACCEPTED, FAILED, ACCEPTED, FAILED, FAILED, FAILED, ACCEPTED]
    abort, segv, hang, escape = (results[i].findings[0] for i in (1, 3, 4, 5))
    assert abort.kind == CRASH and abort.signature.startswith("killed by SIGABRT")
    assert segv.kind == CRASH and segv.signature.startswith("killed by SIGSEGV")
    assert hang.kind == HANG and "spin_forever" in hang.detail
    assert escape.kind == UNCAUGHT and escape.signature.startswith("KeyError")


def test_two_workers_run_every_job():
    with Pool(2, 5.0, FAKE) as pool:
        keys = sorted(job.key for job, _ in pool.run(Job(i, "in.mlir", "fine") for i in range(20)))
    assert keys == list(range(20))
