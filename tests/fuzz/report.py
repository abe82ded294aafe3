"""Findings grouped into buckets by signature; each bucket keeps its count and smallest reproducer, written
to the output folder with the (seed, index) that regenerates it, and beside it the reduced reproducer when
the run reduced one (tests/fuzz/reduce.py)."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tests.fuzz.generate import Mutant
from tests.fuzz.outcome import Finding, Outcome


@dataclass
class Bucket:
    """Findings with one signature: how many, the smallest mutant that shows it, and that mutant reduced."""

    finding: Finding
    count: int
    smallest: Mutant
    file: Path | None = None
    reduced: str | None = None
    reduced_file: Path | None = None

    def line(self) -> str:
        """One line: count, bucket, reproducer file and how to regenerate it."""
        where = f" -> {self.file}" if self.file else ""
        if self.reduced_file and self.reduced is not None:
            where += (f", reduced from {len(self.smallest.text.splitlines())} to {len(self.reduced.splitlines())}"
                      f" lines -> {self.reduced_file}")
        return (f"{self.count:6d}  {self.finding.bucket}  [seed {self.smallest.seed}, index {self.smallest.index},"
                f" from {self.smallest.origin}]{where}")


@dataclass
class Report:
    """Everything one fuzz run saw."""

    seed: int
    statuses: Counter[str] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)
    buckets: dict[str, Bucket] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, mutant: Mutant, outcome: Outcome) -> None:
        """Count one outcome and file its findings."""
        self.statuses[outcome.status] += 1
        self.notes.update(outcome.notes)
        for finding in outcome.findings:
            bucket = self.buckets.get(finding.bucket)
            if bucket is None:
                self.buckets[finding.bucket] = Bucket(finding, 1, mutant)
                continue
            bucket.count += 1
            if len(mutant.text) < len(bucket.smallest.text):
                bucket.smallest, bucket.finding = mutant, finding

    @property
    def inputs(self) -> int:
        """Inputs run."""
        return sum(self.statuses.values())

    def summary(self) -> str:
        """The one-line summary with throughput."""
        rate = self.inputs / self.seconds if self.seconds else 0.0
        notes = "".join(f", {n} x {what}" for what, n in sorted(self.notes.items()))
        return (f"fuzz: seed {self.seed}: {self.inputs} inputs in {self.seconds:.1f} s ({rate:.1f} inputs/s): "
                f"{self.statuses['accepted']} accepted, {self.statuses['rejected']} rejected well, "
                f"{self.statuses['failed']} failed in {len(self.buckets)} buckets{notes}")

    def text(self) -> str:
        """The summary and one line per bucket, most frequent first."""
        lines = [self.summary()]
        lines += [b.line() for b in sorted(self.buckets.values(), key=lambda b: (-b.count, b.finding.bucket))]
        return "\n".join(lines)

    def write(self, out: Path) -> None:
        """Write each bucket's smallest reproducer (with a header comment saying what it does) and the report."""
        out.mkdir(parents=True, exist_ok=True)
        for bucket in self.buckets.values():
            digest = hashlib.sha1(bucket.finding.bucket.encode()).hexdigest()[:8]
            kind = re.sub(r"[^\w-]", "_", bucket.finding.kind)
            bucket.file = out / f"{kind}-{digest}-{bucket.smallest.stem}{bucket.smallest.suffix}"
            bucket.file.write_text(bucket.smallest.text, encoding="utf-8")
            if bucket.reduced is not None and bucket.reduced != bucket.smallest.text:
                bucket.reduced_file = bucket.file.with_suffix(".reduced" + bucket.file.suffix)
                bucket.reduced_file.write_text(bucket.reduced, encoding="utf-8")
            bucket.file.with_suffix(bucket.file.suffix + ".txt").write_text(
                f"{bucket.finding.bucket}\ncount: {bucket.count}\nseed {bucket.smallest.seed}, index "
                f"{bucket.smallest.index}, from {bucket.smallest.origin}, mutations "
                f"{', '.join(bucket.smallest.mutations)}\n\n{bucket.finding.detail}\n", encoding="utf-8")
        (out / "report.txt").write_text(self.text() + "\n", encoding="utf-8")
