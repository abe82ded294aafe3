"""oxide: the user-facing command line (cargo oxide's commands for Python projects).

    oxide new NAME            scaffold a project: src/vecadd.rs (contracted kernel), main.py, README, .gitignore
    oxide doctor              check the toolchain, one line per check
    oxide build [PATH]        .rs kernels -> artifacts in build/ (PTX per --arch, signature JSON, emulator program);
                              a .mlir file -> PTX, as before
    oxide run [PATH] [-- ARGS]   build, then run the host program (on the emulator when there is no GPU)
    oxide inspect [PATH]      the final PTX
    oxide pipeline [PATH]     the IR after every stage
    oxide sanitize [PATH]     run the host program under compute-sanitizer
    oxide tune build|show     build a tile kernel's tuning candidates; show the recorded winners (oxide/tools/tune_cli.py)

PATH is a project directory (default: the current one; kernels in src/*.rs or *.rs, host program main.py),
a .rs kernel file (its host program is the .py beside it) or a .py host program. `--arch` defaults to
$OXIDE_TARGET, else the compute capability of GPU 0, else sm_90.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Callable, TypeVar

import click

from oxide.diagnostics import OxideError, exit_status
from oxide.target import DEFAULT_CHIP
from oxide.tools.entry import run_cli
from oxide.ir.source_text import read_source, snippet_text
from oxide.tools.instances import check_instances, parse_instances, require_kernels
from oxide.tools.project import Project, build_sources, find_project
from oxide.tools.tune_cli import tune

SANITIZER_EXIT = 86
T = TypeVar("T")

_arch = click.option("--arch", "--chip", "arch", multiple=True, metavar="SM",
                     help="GPU architecture (sm_90, ...); repeat for several. Default: $OXIDE_TARGET, else GPU 0's "
                          "(sm_90a on a 9.0 GPU), else sm_90.")
_instantiate = click.option("--instantiate", multiple=True, metavar="KERNEL=T1,T2",
                            help="Instantiate a generic kernel with these type (or const) arguments; repeatable.")


class _PassThrough(click.Command):
    """A command whose arguments after `--` go, untouched, to the host program (`ctx.meta["program_args"]`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            cut = args.index("--")
            args, ctx.meta["program_args"] = args[:cut], tuple(args[cut + 1:])
        return super().parse_args(ctx, args)


def _program_args() -> tuple[str, ...]:
    return click.get_current_context().meta.get("program_args", ())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="oxide-mlir")
def cli() -> None:
    """oxide: NVIDIA GPU kernels in Rust syntax, compiled through MLIR to PTX and run from Python."""


@cli.command()
@click.argument("name")
def new(name: str) -> None:
    """Create a new project NAME: a contracted vecadd kernel and a Python host program that checks it."""
    from oxide.tools.scaffold import scaffold

    directory = Path(name)
    if directory.exists():
        raise click.UsageError(f"{directory} already exists; choose another name")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", directory.name):
        raise click.UsageError(f"project name '{directory.name}' may only use letters, digits, '_', '-' and '.'")
    for path in scaffold(directory, directory.name):
        click.echo(f"created {path}")
    click.echo(f"\nnext: cd {directory} && oxide run")


@cli.command()
def doctor() -> None:
    """Check Python, MLIR (NVPTX), tree-sitter-rust, cuda-python, the GPU, libdevice and optional tools."""
    from oxide.tools.doctor import FAIL, run_checks

    checks = run_checks()
    for check in checks:
        click.echo(check.render())
    failed = sum(c.status == FAIL for c in checks)
    click.echo(f"\n{failed} problem(s) found" if failed else "\nall required checks passed")
    sys.exit(1 if failed else 0)


@cli.command()
@click.argument("path", required=False, type=click.Path())
@click.option("-o", "output", type=click.Path(), default=None,
              help="Artifact directory (default: PATH's build/); for .mlir input, the PTX file.")
@_arch
@click.option("-O", "opt_level", type=click.IntRange(0, 3), default=None,
              help="LLVM optimisation level (default: 1 for tile kernels, 3 for SIMT kernels and .mlir input).")
@_instantiate
@click.option("--knob", "knob", multiple=True, metavar="NAME=VALUE",
              help="A tile lowering knob (warps, stages, specialize, persistent, group_m, epilogue, cluster, pingpong, "
                   "guarded, warp_rows); repeatable.")
def build(path: str | None, output: str | None, arch: tuple[str, ...], opt_level: int | None,
          instantiate: tuple[str, ...], knob: tuple[str, ...]) -> None:
    """Compile kernels: .rs sources to artifacts, or a .mlir file (gpu.module kernels) to PTX."""
    if path and path.endswith(".mlir"):
        sys.exit(build_ptx(Path(path), Path(output) if output else None, arch[0] if arch else DEFAULT_CHIP,
                           3 if opt_level is None else opt_level))
    project = find_project(path)
    knobs = _knobs(knob)
    paths = _build(project, arch, _instances(project, instantiate), opt_level, Path(output) if output else None, knobs)
    from oxide.runtime.artifact import Artifact

    for artifact in paths:
        click.echo(f"built {_shown(artifact)}")
        for name in Artifact.load(artifact).meta.get("uninstantiated_generics", []):
            click.echo(f"warning: generic kernel `{name}` was not instantiated (oxide.load instantiates it on first "
                       f"use; to build it ahead of time: --instantiate {name}=TYPE[,TYPE...])", err=True)


def _knobs(pairs: tuple[str, ...]) -> dict[str, str] | None:
    """`--knob name=value` options as a mapping, checked (a bad name or value exits with the reason)."""
    from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs

    knobs = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.UsageError(f"--knob takes NAME=VALUE, got '{pair}'")
        knobs[name.strip()] = value.strip()
    try:
        GemmKnobs.of(knobs)
    except OxideError as exc:
        raise click.UsageError(exc.diagnostics[0].message) from None
    return knobs or None


def _build(project: Project, arch: tuple[str, ...], instances: dict[str, list[list[str]]], opt_level: int | None = None,
           out: Path | None = None, knobs: dict[str, str] | None = None) -> list[Path]:
    """Build or exit 1 with the located diagnostics; print the compiler's warnings rustc-style."""
    import warnings

    from oxide.api import OxideWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OxideWarning)
        built = _exit_on_error(lambda: build_sources(project, list(arch) or None, instances, opt_level, out, knobs),
                               project)
    for warning in caught:
        if issubclass(warning.category, OxideWarning):
            click.echo(str(warning.message), err=True)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return built


def _exit_on_error(step: Callable[[], T], project: Project) -> T:
    """The result of `step`, or exit 1 with its located diagnostics (or the OS error) on stderr."""
    try:
        return step()
    except OxideError as exc:
        click.echo(exc.render({str(p): snippet_text(p) for p in project.sources}), err=True)
        sys.exit(exit_status(exc.diagnostics) or 1)
    except OSError as exc:
        click.echo(f"error: {exc}", err=True)
    sys.exit(1)


def _instances(project: Project, specs: tuple[str, ...]) -> dict[str, list[list[str]]]:
    """The --instantiate options, each checked to name a generic kernel of the project's sources."""
    def parse_and_check() -> dict[str, list[list[str]]]:
        instances = parse_instances(specs)
        check_instances(instances, {str(p): read_source(p) for p in project.sources})
        return instances

    return _exit_on_error(parse_and_check, project)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def build_ptx(source: Path, output: Path | None, chip: str, opt_level: int) -> int:
    """The .mlir build job; returns the exit status."""
    from oxide.backend import compile_to_ptx
    from oxide.dialects.context import make_context
    from oxide.ir.parse import parse_source
    from oxide.ir.verifier import verify_python
    from oxide.target import Target

    try:
        text = read_source(source)
    except OSError as exc:
        click.echo(f"error: cannot read {source}: {exc}", err=True)
        return 1
    except OxideError as exc:
        click.echo(exc.render({str(source): snippet_text(source)}), err=True)
        return 1
    sources = {str(source): text}
    try:
        target = Target(chip=chip, opt_level=opt_level)
        context = make_context()
        with context:
            parsed = parse_source(text, str(source), context)
            verify_python(parsed.module.operation, parsed.rename)
            ptx = compile_to_ptx(parsed.module, target, parsed.rename)
    except OxideError as exc:
        click.echo(exc.render(sources), err=True)
        return exit_status(exc.diagnostics) or 1
    base = output or source.with_suffix(".ptx")
    for name, text_ in ptx.items():
        path = base if len(ptx) == 1 else base.with_name(f"{base.stem}.{name}{base.suffix}")
        path.write_text(text_, encoding="utf-8")
        click.echo(f"wrote {path} ({chip}, gpu.module @{name})")
    return 0


@cli.command(cls=_PassThrough)
@click.argument("path", required=False, type=click.Path())
@_arch
@_instantiate
@click.option("--target", type=click.Choice(["auto", "gpu", "cpu"]), default="auto", show_default=True,
              help="Where kernels run: the GPU, the emulator (cpu), or the GPU when there is one.")
def run(path: str | None, arch: tuple[str, ...], instantiate: tuple[str, ...], target: str) -> None:
    """Build the kernels, then run the host program (arguments after `--` go to it)."""
    from oxide.runtime.module import resolve_target

    args = _program_args()
    project = find_project(path)
    if project.host is None:
        raise click.UsageError(f"no host program in {project.root} (expected {project.root / 'main.py'}, or a .py "
                               "beside the .rs file)")
    _build(project, arch, _instances(project, instantiate))
    try:
        where, notice = resolve_target(target)
    except Exception as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if where == "cpu":
        click.echo(f"oxide: {notice}", err=True)
        sys.stderr.flush()
    env = dict(os.environ, OXIDE_DEVICE=where)
    if arch:
        env["OXIDE_TARGET"] = arch[0]
    sys.stdout.flush()
    result = subprocess.run([sys.executable, str(project.host), *args], cwd=project.root, env=env)
    sys.exit(result.returncode)


@cli.command()
@click.argument("path", required=False, type=click.Path())
@click.option("--kernel", default=None, help="Print only this kernel's entry (name or entry name).")
@_arch
@_instantiate
def inspect(path: str | None, kernel: str | None, arch: tuple[str, ...], instantiate: tuple[str, ...]) -> None:
    """Build and print the final PTX."""
    from oxide.runtime.artifact import Artifact

    project = find_project(path)
    shown = False
    built = _build(project, arch[:1], _instances(project, instantiate))
    for source, artifact_path in zip(project.sources, built):
        artifact = Artifact.load(artifact_path)
        _exit_on_error(lambda: require_kernels(artifact.kernels, artifact.meta.get("uninstantiated_generics", []),
                                               str(source)), project)
        for chip, ptx in artifact.ptx.items():
            if kernel is None:
                click.echo(f"// {artifact.name} ({chip})\n{ptx}")
                shown = True
                continue
            for spec in artifact.kernels:
                if kernel in (spec.name, spec.entry):
                    click.echo(_entry_text(ptx, spec.entry))
                    shown = True
    if not shown:
        click.echo(f"error: no kernel `{kernel}` in {', '.join(str(s) for s in project.sources)}", err=True)
        sys.exit(1)


def _entry_text(ptx: str, entry: str) -> str:
    """The `.entry` of `entry` up to its closing brace."""
    start = ptx.find(f".entry {entry}(")
    end = ptx.find("\n}", start)
    return ptx[ptx.rfind("\n", 0, start) + 1:end + 2]


@cli.command()
@click.argument("path", required=False, type=click.Path())
@_arch
@_instantiate
def pipeline(path: str | None, arch: tuple[str, ...], instantiate: tuple[str, ...]) -> None:
    """Print the kernels after every stage: AST summary, simt IR, gpu/nvvm IR, LLVM IR, PTX."""
    from oxide.api import default_chip
    from oxide.tools.stages import stages

    project = find_project(path)
    chip = arch[0] if arch else default_chip()
    instances = _instances(project, instantiate)
    for source in project.sources:
        # Every stage is produced before anything is printed: an error shows alone, not under empty headings.
        outputs = _exit_on_error(lambda: [(heading, produce()) for heading, produce in stages(source, chip, instances)],
                                 project)
        for heading, text in outputs:
            click.echo(f"==== {source.name}: {heading} ====")
            click.echo(text.rstrip("\n") + "\n")


@cli.command(cls=_PassThrough)
@click.argument("path", required=False, type=click.Path())
@click.option("--tool", type=click.Choice(["memcheck", "racecheck", "initcheck", "synccheck"]), default="memcheck",
              show_default=True, help="The compute-sanitizer tool.")
@_arch
def sanitize(path: str | None, tool: str, arch: tuple[str, ...]) -> None:
    """Build, then run the host program under compute-sanitizer (on the GPU); arguments after `--` go to it."""
    from oxide.runtime.driver import gpu_status
    from oxide.tools.doctor import OK, _tool

    args = _program_args()
    project = find_project(path)
    if project.host is None:
        raise click.UsageError(f"no host program in {project.root}")
    found = _tool("compute-sanitizer", "", "")
    if found.status != OK:
        click.echo("error: compute-sanitizer was not found; install the CUDA toolkit and put its bin/ on PATH "
                   "(or set CUDA_HOME)", err=True)
        sys.exit(1)
    ok, why = gpu_status()
    if not ok:
        click.echo(f"error: compute-sanitizer needs a GPU ({why}); the emulator checks races and bounds itself: "
                   "`oxide run --target cpu`", err=True)
        sys.exit(1)
    _build(project, arch, {})
    command = [found.detail, "--tool", tool, "--error-exitcode", str(SANITIZER_EXIT), sys.executable,
               str(project.host), *args]
    sys.stdout.flush()
    result = subprocess.run(command, cwd=project.root, env=dict(os.environ, OXIDE_DEVICE="gpu"))
    sys.exit(result.returncode)


cli.add_command(tune)


def main() -> None:
    """Console entry point."""
    run_cli(cli)


if __name__ == "__main__":
    main()
