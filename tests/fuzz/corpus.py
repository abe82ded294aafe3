"""The seed inputs: the project's examples, lit inputs (split on `// -----`) and Rust kernels in tests, in a
fixed order, so that mutant (seed, index) means the same input on every machine."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SPLIT_MARKER = "// -----"
# Directories under tests/ whose .rs files are kernels (fixtures, lit inputs, safety and rejection cases).
_RUST_DIRS = ("examples", "tests")
# lit writes its temporary files under tests/lit/Output: seeds read from there would make the corpus depend
# on whether lit ran on this checkout.
_SKIP = ("tests/fuzz", "tests/lit/Output")
_LIT_DIRECTIVE = re.compile(r"^\s*//\s*(RUN|CHECK[\w-]*|REQUIRES|UNSUPPORTED|XFAIL)\b.*$", re.MULTILINE)


@dataclass(frozen=True)
class Seed:
    """One seed input: where it came from (`origin`, for reports), its suffix (.rs or .mlir) and text."""

    origin: str
    suffix: str
    text: str


def _has_code(text: str) -> bool:
    """Whether a chunk holds anything besides comments (a lit driver file's chunk may be only RUN lines)."""
    return any(line.strip() and not line.strip().startswith("//") for line in text.splitlines())


def _mlir_seeds(path: Path, root: Path) -> list[Seed]:
    # RUN/CHECK lines only steer lit; dropping them keeps mutants short without losing any IR.
    chunks = [_LIT_DIRECTIVE.sub("", c).strip("\n") + "\n" for c in _split(path.read_text(encoding="utf-8"))]
    rel = path.relative_to(root).as_posix()
    return [Seed(f"{rel}#{i}", ".mlir", c) for i, c in enumerate(chunks) if _has_code(c)]


def _split(text: str) -> list[str]:
    chunks, current = [], []
    for line in text.splitlines(keepends=True):
        if line.strip() == SPLIT_MARKER:
            chunks.append("".join(current))
            current = []
        else:
            current.append(line)
    chunks.append("".join(current))
    return chunks


def load_corpus(root: Path = REPO) -> list[Seed]:
    """Every seed, sorted by origin."""
    seeds: list[Seed] = []
    for top in _RUST_DIRS:
        for path in sorted((root / top).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or rel.startswith(_SKIP):
                continue
            if path.suffix == ".rs":
                try:
                    seeds.append(Seed(rel, ".rs", path.read_text(encoding="utf-8")))
                except UnicodeDecodeError:  # an input of the encoding tests: mutants are made of text
                    continue
            elif path.suffix == ".mlir" and (top == "examples" or rel.startswith("tests/lit/")):
                seeds.extend(_mlir_seeds(path, root))
    return sorted(seeds, key=lambda s: s.origin)
