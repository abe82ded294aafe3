"""`python -m tests.fuzz --seed S --inputs N --jobs J --out DIR`: the long fuzz run. Exit status 1 when any
input failed (the report lists each bucket with its reproducer, and the reproducer reduced unless
--no-reduce), else 0."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tests.fuzz.reduce import DEFAULT_MAX_CALLS
from tests.fuzz.run import DEFAULT_TIME_LIMIT_S, default_jobs, fuzz

PROGRESS_EVERY = 500


@click.command()
@click.option("--seed", default=0, show_default=True, help="Seed; mutant (seed, index) is always the same input.")
@click.option("--inputs", default=100000, show_default=True, help="How many mutants to run.")
@click.option("--start", default=0, show_default=True, help="First index (replay one finding: --start I --inputs 1).")
@click.option("--jobs", default=default_jobs(), show_default=True, help="Worker processes.")
@click.option("--out", default="fuzz-out", show_default=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the reproducers and report.txt.")
@click.option("--time-limit", default=DEFAULT_TIME_LIMIT_S, show_default=True, help="Seconds per input before it is a hang.")
@click.option("--reduce/--no-reduce", default=True, show_default=True,
              help="Reduce each bucket's reproducer (ddmin on lines, then tokens) into <name>.reduced.<ext>.")
@click.option("--reduce-calls", default=DEFAULT_MAX_CALLS, show_default=True,
              help="Most oracle calls the reduction of one bucket may make.")
def main(seed: int, inputs: int, start: int, jobs: int, out: Path, time_limit: float, reduce: bool,
         reduce_calls: int) -> None:
    """Fuzz oxide with mutants of its own examples and tests."""
    def progress(report):  # type: ignore[no-untyped-def]
        if report.inputs % PROGRESS_EVERY == 0:
            click.echo(report.summary(), err=True)

    report = fuzz(seed, inputs, jobs, out, start, time_limit, progress, reduce_calls if reduce else 0)
    click.echo(report.text())
    click.echo(f"reproducers and report: {out}")
    sys.exit(1 if report.buckets else 0)


if __name__ == "__main__":
    main()
