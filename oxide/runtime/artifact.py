"""Kernel artifacts on disk: a directory with `<name>.oxide.json` (the signature), PTX per target and the
emulator program.

    vecadd.oxide.json      {"format": 1, "name", "source", "source_hash", "compiler", "options",
                            "targets": {"sm_90": "vecadd.sm_90.ptx"}, "emulator": "vecadd.emu.py",
                            "kernels": [KernelSpec.to_json(), ...]}
    vecadd.sm_90.ptx       PTX for sm_90
    vecadd.emu.py          the emulator program of every kernel (Python source run by oxide.runtime.emulator)

The compiler writes artifacts (`oxide build`, `oxide.build`); the runtime reads them (`Artifact.load`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oxide.runtime.errors import ArtifactError
from oxide.runtime.signature import FORMAT_VERSION, KernelSpec

SUFFIX = ".oxide.json"
_CHIP = re.compile(r"sm_(\d+)([af]?)")


@dataclass
class Artifact:
    """A loaded (or to-be-written) artifact: kernel signatures, PTX by chip, the emulator program."""

    name: str
    kernels: list[KernelSpec]
    ptx: dict[str, str]
    emulator: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # source, source_hash, compiler, options

    def write(self, directory: str | Path) -> Path:
        """Write the artifact into `directory`; return the path of its JSON file."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        targets = {}
        for chip, text in self.ptx.items():
            targets[chip] = f"{self.name}.{chip}.ptx"
            (out / targets[chip]).write_text(text, encoding="utf-8")
        doc: dict[str, Any] = {"format": FORMAT_VERSION, "name": self.name, **self.meta, "targets": targets,
                               "emulator": None, "kernels": [k.to_json() for k in self.kernels]}
        if self.emulator is not None:
            doc["emulator"] = f"{self.name}.emu.py"
            (out / doc["emulator"]).write_text(self.emulator, encoding="utf-8")
        path = out / f"{self.name}{SUFFIX}"
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> "Artifact":
        """Read an artifact from its JSON file, or from a directory holding exactly one."""
        path = Path(path)
        if path.is_dir():
            found = sorted(path.glob(f"*{SUFFIX}"))
            if len(found) != 1:
                raise ArtifactError(f"{path}: expected one *{SUFFIX} artifact, found {len(found)}")
            path = found[0]
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ArtifactError(f"cannot read kernel artifact {path}: {exc}") from None
        if doc.get("format") != FORMAT_VERSION:
            raise ArtifactError(f"{path}: artifact format {doc.get('format')!r}, this runtime reads format "
                                f"{FORMAT_VERSION}; rebuild it with `oxide build`")
        try:
            ptx = {chip: (path.parent / name).read_text(encoding="utf-8") for chip, name in doc["targets"].items()}
            emulator = (path.parent / doc["emulator"]).read_text(encoding="utf-8") if doc.get("emulator") else None
            kernels = [KernelSpec.from_json(k) for k in doc["kernels"]]
        except (OSError, KeyError, TypeError) as exc:
            raise ArtifactError(f"{path}: incomplete kernel artifact ({type(exc).__name__}: {exc}); "
                                "rebuild it with `oxide build`") from None
        meta = {k: v for k, v in doc.items() if k not in ("format", "name", "targets", "emulator", "kernels")}
        return cls(doc["name"], kernels, ptx, emulator, meta)

    def ptx_for(self, major: int, minor: int) -> tuple[str, str]:
        """(chip, PTX) to load on a device of compute capability major.minor: the same chip, else the newest
        plain target not above it (PTX is JIT-compiled forward); arch-specific (`a`/`f`) PTX only exactly."""
        device = major * 10 + minor
        best: tuple[int, str] | None = None
        for chip in self.ptx:
            m = _CHIP.fullmatch(chip)
            if not m:
                continue
            sm = int(m.group(1))
            if sm == device and not m.group(2):
                return chip, self.ptx[chip]
            if sm == device or (sm < device and not m.group(2)):
                if best is None or sm > best[0]:
                    best = (sm, chip)
        if best is None:
            raise ArtifactError(f"artifact `{self.name}` has PTX for {', '.join(sorted(self.ptx)) or 'no target'}, "
                                f"none of which runs on a compute capability {major}.{minor} GPU; rebuild with "
                                f"`oxide build --arch sm_{device}`")
        return best[1], self.ptx[best[1]]
