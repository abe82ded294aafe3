"""What `oxide build/run/inspect/sanitize` act on: a project directory (kernels in src/*.rs or *.rs, host
program main.py), a single .rs file, or a host program .py; and the build of its kernels into artifacts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

BUILD_DIR = "build"
HOST_PROGRAM = "main.py"


@dataclass
class Project:
    """The kernel sources, the host program (if any) and the build directory of one invocation."""

    root: Path
    sources: list[Path]
    host: Path | None

    @property
    def build_dir(self) -> Path:
        return self.root / BUILD_DIR


def find_project(path: str | None) -> Project:
    """Resolve PATH (default: the current directory); click.UsageError when there is nothing to build."""
    target = Path(path or ".")
    if not target.exists():
        raise click.UsageError(f"{target} does not exist")
    if target.is_file():
        if target.suffix == ".rs":
            host = target.with_suffix(".py")
            return Project(target.parent, [target], host if host.exists() else None)
        if target.suffix == ".py":
            root = target.parent
            return Project(root, _kernel_sources(root), target)
        raise click.UsageError(f"{target}: expected a project directory, a .rs kernel file or a .py host program")
    sources = _kernel_sources(target)
    host = target / HOST_PROGRAM
    if not sources:
        raise click.UsageError(f"no kernel sources in {target} (looked for src/*.rs and *.rs); "
                               "create a project with `oxide new NAME`")
    return Project(target, sources, host if host.exists() else None)


def _kernel_sources(root: Path) -> list[Path]:
    return sorted((root / "src").glob("*.rs")) or sorted(root.glob("*.rs"))


def build_sources(project: Project, chips: list[str] | None, instances: dict[str, list[list[str]]],
                  opt_level: int | None, out: Path | None = None, knobs: dict[str, str] | None = None) -> list[Path]:
    """Build every kernel source into `out` (default: the project's build/); return the artifact paths.
    Raises OxideError (located diagnostics) for bad kernel source; `knobs` are the tile GEMM lowering's."""
    from oxide.api import build

    return [build(src, chips=chips, instances=instances, opt_level=opt_level, out_dir=out or project.build_dir,
                  knobs=knobs) for src in project.sources]
