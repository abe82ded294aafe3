"""oxide: the user-facing command line. For now `oxide build` compiles an MLIR kernel file to PTX."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from oxide.ir.diagnostics import OxideError
from oxide.tools.entry import run_cli


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="oxide-mlir")
def cli() -> None:
    """oxide: NVIDIA GPU kernels in Rust syntax, compiled through MLIR to PTX."""


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("-o", "output", type=click.Path(dir_okay=False), default=None,
              help="PTX file to write (default: SOURCE with .ptx; one file per gpu.module when there are several).")
@click.option("--chip", default="sm_90", show_default=True, help="GPU architecture.")
@click.option("-O", "opt_level", type=click.IntRange(0, 3), default=3, show_default=True, help="LLVM optimisation level.")
def build(source: str, output: str | None, chip: str, opt_level: int) -> None:
    """Compile SOURCE (MLIR with gpu.module kernels) to PTX."""
    sys.exit(build_ptx(Path(source), Path(output) if output else None, chip, opt_level))


def build_ptx(source: Path, output: Path | None, chip: str, opt_level: int) -> int:
    """The build job; returns the exit status."""
    from oxide.backend import Target, compile_to_ptx
    from oxide.ir.context import make_context
    from oxide.ir.parse import parse_source
    from oxide.ir.verifier import verify_python

    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"error: cannot read {source}: {exc}", err=True)
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
        return 1
    base = output or source.with_suffix(".ptx")
    for name, text_ in ptx.items():
        path = base if len(ptx) == 1 else base.with_name(f"{base.stem}.{name}{base.suffix}")
        path.write_text(text_, encoding="utf-8")
        click.echo(f"wrote {path} ({chip}, gpu.module @{name})")
    return 0


def main() -> None:
    """Console entry point."""
    run_cli(cli)


if __name__ == "__main__":
    main()
