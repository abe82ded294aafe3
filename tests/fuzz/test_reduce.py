"""The reducer: it shrinks a reproducer to what still fails in the same bucket, through real worker
processes (a crash while reducing is caught like one while fuzzing), within its budget of oracle calls."""

from pathlib import Path

from tests.fuzz.generate import Mutant
from tests.fuzz.outcome import CRASH, HANG, UNCAUGHT, Finding, Outcome
from tests.fuzz.pool import Job, Pool
from tests.fuzz.reduce import reduce
from tests.fuzz.report import Report
from tests.fuzz.run import fuzz

FAKE = "tests.fuzz.fake_targets:fail_on_words"
FILLER = [f"let filler_{i} = {i};\n" for i in range(100)]


def bucket_of(pool: Pool, text: str) -> str:
    (_, outcome), = pool.run([Job(0, "in.rs", text)])
    return outcome.findings[0].bucket


def test_a_crash_in_a_hundred_lines_shrinks_to_its_line():
    text = "".join(FILLER[:37] + ["abort\n"] + FILLER[37:99])
    with Pool(2, 5.0, FAKE) as pool:
        bucket = bucket_of(pool, text)
        assert bucket.startswith(f"{CRASH}: killed by SIGABRT")
        reduction = reduce(pool, text, "in.rs", bucket)
    assert reduction.text == "abort\n"
    assert reduction.calls <= 200


def test_a_hang_shrinks_under_the_same_time_limit():
    text = "".join(FILLER[:2] + ["hang\n"] + FILLER[2:4])
    with Pool(2, 0.5, FAKE) as pool:
        bucket = bucket_of(pool, text)
        assert bucket == f"{HANG}: over the time limit in outside oxide"
        reduction = reduce(pool, text, "in.rs", bucket)
    assert reduction.text == "hang\n"


def test_tokens_go_after_lines():
    text = "".join(FILLER[:5] + ["let boom = x + y;\n"] + FILLER[5:10])
    with Pool(1, 5.0, FAKE) as pool:
        reduction = reduce(pool, text, "in.rs", f"{UNCAUGHT}: boom")
    assert reduction.text == "boom\n"


def test_a_removal_that_changes_the_signature_is_not_kept():
    text = "".join(FILLER[:20] + ["boom\n"] + FILLER[20:60] + ["keep\n"] + FILLER[60:80])
    with Pool(2, 5.0, FAKE) as pool:
        reduction = reduce(pool, text, "in.rs", f"{UNCAUGHT}: boom with keep")
    assert reduction.text == "boom\nkeep\n"


def test_the_budget_bounds_the_oracle_calls():
    text = "".join(FILLER[:50] + ["boom\n"] + FILLER[50:])
    with Pool(2, 5.0, FAKE) as pool:
        reduction = reduce(pool, text, "in.rs", f"{UNCAUGHT}: boom", max_calls=7)
    assert reduction.calls == 7
    assert "boom\n" in reduction.text and len(reduction.text) < len(text)


def test_a_text_is_run_once_however_many_removals_leave_it():
    # With four workers, removing either `x` line of the four leaves the same text in one batch: one call.
    with Pool(4, 5.0, FAKE) as pool:
        reduction = reduce(pool, "boom\nx\nx\nkeep\n", "in.rs", f"{UNCAUGHT}: boom with keep")
    assert reduction.text == "boom\nkeep\n"
    assert reduction.calls == 10


def test_an_input_that_no_longer_fails_stays_as_it_was():
    text = "".join(FILLER[:10])
    with Pool(1, 5.0, FAKE) as pool:
        reduction = reduce(pool, text, "in.rs", f"{UNCAUGHT}: boom")
    assert reduction.text == text


def test_the_report_writes_and_lists_the_reduced_reproducer(tmp_path: Path):
    report = Report(1)
    report.add(Mutant(1, 4, "examples/k.rs", ".rs", ("line",), "boom\nfiller\n"),
               Outcome("failed", [Finding(UNCAUGHT, "boom")]))
    bucket, = report.buckets.values()
    bucket.reduced = "boom\n"
    report.write(tmp_path)
    assert bucket.reduced_file is not None and bucket.reduced_file.name.endswith("-k.reduced.rs")
    assert bucket.reduced_file.read_text() == "boom\n"
    assert str(bucket.reduced_file) in (tmp_path / "report.txt").read_text()


def test_a_fuzz_run_reduces_its_buckets_and_lists_them(tmp_path: Path):
    report = fuzz(1, 12, 2, tmp_path, oracle="tests.fuzz.fake_targets:fail_on_fn", reduce_calls=200)
    bucket, = report.buckets.values()
    assert bucket.reduced_file is not None and bucket.reduced_file.parent == tmp_path
    assert bucket.reduced_file.read_text() == "fn\n"
    assert f"-> {bucket.reduced_file}" in (tmp_path / "report.txt").read_text()
