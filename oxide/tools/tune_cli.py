"""`oxide tune`: build a tile kernel's tuning space into the artifact cache, and show the recorded winners.

    oxide tune build autotune.rs --kernel rms_norm --fix N=1024 --space BLOCK_SIZE=32,64,128,256
    oxide tune show [--kernel rms_norm]

`build` is the compile step (docs/autotune.md): every combination of the `--space` values is one candidate,
built through the cache, with a manifest the timing step reads; the same space given to oxide.autotune's
`Autotuner` (integer values as ints) has the same key, so the Python call reuses it and only times. Timing
needs the kernel's inputs, so it runs from Python (`Autotuner.run`, or `oxide.runtime.tune.tune` where the
compiler is absent).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import click

from oxide.diagnostics import OxideError, exit_status
from oxide.ir.source_text import snippet_text

_INT = re.compile(r"-?\d+")


def _value(text: str) -> Any:
    """A parameter value as the Python API would give it: an int where it reads as one, else the text."""
    text = text.strip()
    return int(text) if _INT.fullmatch(text) else text


def _pairs(option: str, pairs: tuple[str, ...], many: bool) -> dict[str, Any]:
    """`NAME=VALUE` (or `NAME=V1,V2` when `many`) options as a mapping; a usage error for a malformed one."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, values = pair.partition("=")
        parts = values.split(",") if many else [values]
        if not sep or not name.strip() or not all(p.strip() for p in parts):
            raise click.UsageError(f"{option} takes NAME={'V1,V2,...' if many else 'VALUE'}, got '{pair}'")
        if name.strip() in out:
            raise click.UsageError(f"{option} names `{name.strip()}` twice")
        out[name.strip()] = [_value(p) for p in parts] if many else _value(values)
    return out


@click.group()
def tune() -> None:
    """Autotuning of tile kernels: build the candidates of a space, show the recorded winners."""


@tune.command("build")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--kernel", required=True, help="The tile entry to tune.")
@click.option("--space", "space", multiple=True, required=True, metavar="NAME=V1,V2",
              help="A tuned parameter (a generic parameter or a lowering knob) and its values; repeatable "
                   "(the candidates are every combination).")
@click.option("--fix", "fixed", multiple=True, metavar="NAME=VALUE",
              help="A parameter every candidate shares (a generic parameter or a knob); repeatable.")
@click.option("--arch", "--chip", "arch", multiple=True, metavar="SM",
              help="GPU architecture; repeat for several. Default: $OXIDE_TARGET, else GPU 0's (sm_90a on a 9.0 GPU), else sm_90.")
@click.option("-O", "opt_level", type=click.IntRange(0, 3), default=None,
              help="LLVM optimisation level (default: 1 for tile kernels, 3 for SIMT kernels).")
def build_space(path: str, kernel: str, space: tuple[str, ...], fixed: tuple[str, ...], arch: tuple[str, ...],
                opt_level: int | None) -> None:
    """Build every candidate of a tuning space into the cache and write its manifest."""
    from oxide.autotune import Autotuner, Config

    source = Path(path)
    if not source.is_file():
        raise click.UsageError(f"{source} does not exist")
    tuner = Autotuner(source, kernel, fixed=_pairs("--fix", fixed, many=False), chips=list(arch) or None,
                      opt_level=opt_level).configs(Config.grid(**_pairs("--space", space, many=True)))
    try:
        manifest = tuner.build()
    except OxideError as exc:
        click.echo(exc.render({str(source): snippet_text(source)}), err=True)
        sys.exit(exit_status(exc.diagnostics) or 1)
    for candidate in manifest.candidates:
        click.echo(f"  {candidate.id}: " + ("built" if candidate.skipped is None else
                                             f"skipped: {candidate.skipped.splitlines()[0]}"))
    click.echo(f"manifest: {manifest.directory / 'manifest.json'}")
    if all(c.skipped is not None for c in manifest.candidates):
        click.echo(f"error: no candidate of `{kernel}` could be built", err=True)
        sys.exit(1)


@tune.command("show")
@click.option("--kernel", default=None, help="Only this kernel's records.")
def show(kernel: str | None) -> None:
    """The recorded winners in the cache: kernel, device, problem, best config and its time."""
    from oxide.runtime.tune import records
    from oxide.runtime.tune_manifest import TuneError

    try:
        found = records(kernel)
    except TuneError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if not found:
        click.echo("no tuning records" + (f" of `{kernel}`" if kernel else "") + " in the cache")
        return
    for result in found:
        best = result.best
        assert best is not None and best.ms is not None  # a record exists only for a space with a winner
        timed = sum(t.ms is not None for t in result.trials)
        click.echo(f"{result.kernel} on {result.device} for ({', '.join(result.problem)}): best {best.id} "
                   f"{best.ms:.4g} ms ({timed} timed, {len(result.trials) - timed} skipped; space "
                   f"{result.manifest.space[:12]})")
