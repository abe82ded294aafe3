"""The tuning manifest: the candidates of one tuning space, as the compile step left them for the timing step.

The compile step (oxide.autotune, where the compiler is) builds one artifact per configuration into the
artifact cache and writes `tune/<space>/manifest.json` beside them; the timing step (oxide.runtime.tune,
where the GPU is) reads it and needs nothing of the compiler. Artifact paths are relative to the manifest,
so the cache directory can be carried to another machine whole.

    {"format": 1, "kernel": "rms_norm", "source": "autotune.rs", "space": "<key>", "chips": ["sm_90"],
     "candidates": [{"id": "BLOCK_SIZE=32", "config": {"BLOCK_SIZE": 32}, "artifact": "../../<key>/x.oxide.json"},
                    {"id": "BLOCK_SIZE=4096", "config": {...}, "skipped": "pruned"}, ...]}

A best record (`best-<problem+device>.json` in the same directory) remembers the winner for one problem
(argument shapes and dtypes) on one device, so a later run picks it without timing again.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oxide.runtime.cache import cache_dir
from oxide.runtime.errors import OxideRuntimeError

MANIFEST_FORMAT = 1
MANIFEST = "manifest.json"


class TuneError(OxideRuntimeError):
    """A tuning manifest or record is missing or unreadable, or no candidate of a space could run."""


@dataclass
class Candidate:
    """One configuration of a space: its parameters, its built artifact, or why it was skipped at build time."""

    id: str
    config: dict[str, Any]
    artifact: Path | None = None
    skipped: str | None = None

    def to_json(self, base: Path) -> dict[str, Any]:
        """The manifest entry, with the artifact path relative to the manifest's directory `base`."""
        doc: dict[str, Any] = {"id": self.id, "config": self.config}
        if self.artifact is not None:
            doc["artifact"] = os.path.relpath(self.artifact, base)
        if self.skipped is not None:
            doc["skipped"] = self.skipped
        return doc


@dataclass
class Manifest:
    """The candidates of one tuning space (`space` is its key, the name of its directory in the cache)."""

    kernel: str
    source: str
    space: str
    chips: list[str]
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def directory(self) -> Path:
        """Where this space's manifest and best records live."""
        return space_dir(self.space)

    def write(self) -> Path:
        """Store the manifest (written under a temporary name and renamed: a reader never sees half of it)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        doc = {"format": MANIFEST_FORMAT, "kernel": self.kernel, "source": self.source, "space": self.space,
               "chips": self.chips, "candidates": [c.to_json(self.directory) for c in self.candidates]}
        return write_json(self.directory / MANIFEST, doc)

    @classmethod
    def load(cls, path: str | Path) -> "Manifest":
        """Read a manifest (its file, or its space directory)."""
        path = Path(path)
        if path.is_dir():
            path = path / MANIFEST
        doc = read_json(path, "tuning manifest")
        if doc.get("format") != MANIFEST_FORMAT:
            raise TuneError(f"{path}: tuning manifest format {doc.get('format')!r}, this runtime reads format "
                            f"{MANIFEST_FORMAT}; build the candidates again")
        try:
            candidates = [Candidate(c["id"], dict(c["config"]),
                                    (path.parent / c["artifact"]) if "artifact" in c else None, c.get("skipped"))
                          for c in doc["candidates"]]
            return cls(doc["kernel"], doc["source"], doc["space"], list(doc["chips"]), candidates)
        except (KeyError, TypeError) as exc:
            raise TuneError(f"{path}: incomplete tuning manifest ({type(exc).__name__}: {exc}); build the "
                            "candidates again") from None


def space_dir(space: str) -> Path:
    """The cache directory of a tuning space."""
    return cache_dir() / "tune" / space


def read_json(path: Path, what: str) -> dict[str, Any]:
    """A JSON object from `path`, or TuneError naming `what` could not be read."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TuneError(f"cannot read {what} {path}: {exc}") from None
    if not isinstance(doc, dict):
        raise TuneError(f"{path}: a {what} is a JSON object")
    return doc


def write_json(path: Path, doc: dict[str, Any]) -> Path:
    """Write `doc` to `path` atomically (a concurrent reader sees the old file or the new one)."""
    fd, staging = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(doc, out, indent=2, sort_keys=True)
        out.write("\n")
    os.replace(staging, path)
    return path
