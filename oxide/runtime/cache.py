"""The on-disk artifact cache: compiled kernels keyed by source, options, compiler version and target.

`OXIDE_CACHE_DIR` overrides the location (default `~/.cache/oxide`). An entry is a directory named by the
key holding one artifact; it is written under a temporary name and renamed, so a reader never sees half an
entry. A second build of the same source with the same options skips compilation.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

from oxide.runtime.artifact import SUFFIX, Artifact
from oxide.runtime.errors import ArtifactError


def cache_dir() -> Path:
    """Where cached artifacts live."""
    return Path(os.environ.get("OXIDE_CACHE_DIR") or Path.home() / ".cache" / "oxide")


def source_hash(source: str) -> str:
    """sha256 of a kernel source text."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def cache_key(source: str, options: dict[str, Any], compiler_version: str, target: str) -> str:
    """The cache key of one build."""
    doc = json.dumps({"source": source_hash(source), "options": options, "compiler": compiler_version,
                      "target": target}, sort_keys=True)
    return hashlib.sha256(doc.encode("utf-8")).hexdigest()[:32]


def cached(key: str, build: Callable[[], Artifact]) -> tuple[Path, bool]:
    """The artifact JSON path for `key`, building (and storing) it on a miss; also whether it was a hit."""
    entry = cache_dir() / key
    found = sorted(entry.glob(f"*{SUFFIX}")) if entry.is_dir() else []
    if len(found) == 1:
        try:
            Artifact.load(found[0])
            return found[0], True
        except ArtifactError:
            pass  # a damaged entry is rebuilt below
    artifact = build()
    entry.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=entry.parent))
    artifact.write(staging)
    shutil.rmtree(entry, ignore_errors=True)
    try:
        staging.rename(entry)
    except OSError:  # another process stored the same entry first: theirs is as good as ours
        shutil.rmtree(staging, ignore_errors=True)
    return entry / f"{artifact.name}{SUFFIX}", False
