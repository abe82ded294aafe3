"""What running one input gave: accepted, rejected (well), or failed, with findings and notes. Plain data, so
it crosses the worker pipe as JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

ACCEPTED, REJECTED, FAILED = "accepted", "rejected", "failed"
# Finding kinds: each one is a failure of the robustness promise.
CRASH, HANG, INTERNAL, TRACEBACK, UNCAUGHT, UNLOCATED, PTXAS, EMULATOR = (
    "crash", "hang", "internal-error", "traceback", "uncaught-exception", "unlocated-error", "ptxas-reject",
    "emulator-exception")


@dataclass
class Finding:
    """One failure: its kind, the bucket signature, and the evidence (stderr or message excerpt)."""

    kind: str
    signature: str
    detail: str = ""

    @property
    def bucket(self) -> str:
        """The bucket key: kind and signature."""
        return f"{self.kind}: {self.signature}"


@dataclass
class Outcome:
    """The result of one input: status, findings, notes (ptxas absent, emulator slow, ...)."""

    status: str
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The JSON form sent over the worker pipe."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Outcome":
        """Read the JSON form back."""
        return cls(data["status"], [Finding(**f) for f in data["findings"]], list(data["notes"]))
