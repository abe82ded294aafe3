"""Rebuild the prebuilt Philox artifact the runtime ships (oxide/runtime/random/philox.oxide.json) from its
Rust source: `python -m oxide.tools.random_kernels`. The PTX targets the oldest chip the toolchain assembles,
so the driver JIT-compiles it forward for any newer GPU."""

from __future__ import annotations

import hashlib

from oxide.api import compile as compile_source
from oxide.runtime.artifact import Artifact
from oxide.runtime.random import ARTIFACT, SOURCE

CHIP = "sm_75"


def build_artifact() -> Artifact:
    """The artifact of philox.rs as the compiler makes it now (no compiler hash: the test compares contents).
    It keeps its emulator program; the shipped copy has none (`main`), since without a GPU the runtime computes
    the stream with numpy."""
    text = SOURCE.read_text(encoding="utf-8")
    compiled = compile_source(text, SOURCE.name, chip=CHIP)
    artifact = compiled.artifact(text, {"chips": [CHIP]})
    artifact.name = "philox"
    artifact.meta = {"source": SOURCE.name, "source_hash": hashlib.sha256(text.encode()).hexdigest(),
                     "options": {"chips": [CHIP]}}
    return artifact


def main() -> None:
    """Write the artifact next to its source."""
    artifact = build_artifact()
    artifact.emulator = None
    print(f"wrote {artifact.write(ARTIFACT.parent).name}")


if __name__ == "__main__":
    main()
