"""oxide-opt: mlir-opt for oxide. Parse MLIR, verify (IRDL and Python verifiers), run a pass pipeline that
mixes oxide and upstream passes, and print MLIR, LLVM IR or PTX.

Bad input exits with status 1 and `file:line:col: error: ...` on stderr, never a traceback.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from oxide.diagnostics import Diagnostic, OxideError, exit_status
from oxide.target import DEFAULT_CHIP
from oxide.tools.entry import run_cli
from oxide.tools.instances import check_instances, parse_instances, require_kernels

if TYPE_CHECKING:
    from mlir import ir

    from oxide.ir.parse import ParsedSource

SPLIT_MARKER = "// -----"


@dataclass
class Chunk:
    """A piece of the input; `text` keeps its original line numbers (earlier lines are blank)."""

    text: str
    first_line: int


def split_input(text: str, split: bool) -> list[Chunk]:
    """The input, or its `// -----`-separated pieces, each padded so line numbers match the file."""
    if not split:
        return [Chunk(text, 1)]
    chunks, current, start = [], [], 1
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if line.strip() == SPLIT_MARKER:
            chunks.append(Chunk("\n" * (start - 1) + "".join(current), start))
            current, start = [], number + 1
        else:
            current.append(line)
    chunks.append(Chunk("\n" * (start - 1) + "".join(current), start))
    return chunks


def _compile_rust(text: str, name: str, context: "ir.Context", instances: dict[str, list[list[str]]],
                  timings: dict[str, float]) -> "ParsedSource":
    from oxide.frontends import compile_source
    from oxide.ir.parse import ParsedSource

    check_instances(instances, {name: text})
    result = compile_source(text, name, context, instances)
    require_kernels(result.kernels, result.skipped_generic, name)
    timings.update(result.timings)
    return ParsedSource(result.module, result.owner, name, text)


def process_chunk(chunk: Chunk, name: str, pipeline: str | None, emit: str, chip: str, print_after_all: bool,
                  context: "ir.Context", instances: dict[str, list[list[str]]] | None = None,
                  timings: dict[str, float] | None = None) -> tuple[str | None, list[Diagnostic]]:
    """Run one chunk: (output text or None on failure, every diagnostic emitted)."""
    from mlir import ir

    from oxide.backend import compile_to_llvm_ir, compile_to_ptx
    from oxide.ir.diagnostics import captured_diagnostics, from_mlir_error
    from oxide.ir.parse import UNNAMED_BUFFER, parse_source
    from oxide.ir.verifier import verify_python
    from oxide.passes.pipeline import build_pass_manager
    from oxide.target import Target

    rename = {UNNAMED_BUFFER: name}
    instances = instances or {}
    timings = timings if timings is not None else {}
    with context, captured_diagnostics(context, rename) as emitted:
        try:
            target = Target(chip=chip)
            pm = build_pass_manager(pipeline, context) if pipeline else None
            if name.endswith(".rs"):
                parsed = _compile_rust(chunk.text, name, context, instances, timings)
            else:
                parsed = parse_source(chunk.text, name, context)
            verify_python(parsed.module.operation, rename)
            if pm is not None:
                if print_after_all:
                    pm.enable_ir_printing(print_after_all=True)
                try:
                    pm.run(parsed.module.operation)
                except ir.MLIRError as exc:
                    return None, emitted + from_mlir_error(exc, rename)
            start = time.perf_counter()
            if emit == "ptx":
                out = "\n".join(compile_to_ptx(parsed.module, target, rename).values())
            elif emit == "llvm":
                out = "\n".join(compile_to_llvm_ir(parsed.module, target, rename).values())
            else:
                out = str(parsed.module)
            timings[f"{emit}: passes+backend" if emit != "mlir" else "print"] = time.perf_counter() - start
        except OxideError as exc:
            return None, emitted + exc.diagnostics
    errors = [d for d in emitted if d.severity == "error"]
    return (None if errors else out), emitted


def pass_listing() -> str:
    """oxide's passes with their summaries, for --list-passes."""
    import oxide.backend  # noqa: F401  (registers the backend's pass and the named pipelines)
    from oxide.passes.pipeline import PIPELINES
    from oxide.passes.registry import registered_passes

    lines = ["oxide passes (run on builtin.module; upstream MLIR passes may be mixed in):"]
    for name, cls in sorted(registered_passes().items()):
        lines.append(f"  {name:28} {(cls.__doc__ or '').strip().splitlines()[0]}")
    lines.append("named pipelines:")
    for name, pipeline in sorted(PIPELINES.items()):
        lines.append(f"  {name:28} {(pipeline.__doc__ or '').strip().splitlines()[0]}")
    return "\n".join(lines)


def irdl_text() -> str:
    """oxide's dialects as IRDL text (one module), loadable by upstream `mlir-opt --irdl-file=`."""
    from oxide.dialects.context import oxide_dialects

    body = "".join(dialect.irdl() for dialect in oxide_dialects())
    return "module {\n" + body + "}\n"


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_file", default="-", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("-o", "output", default="-", type=click.Path(allow_dash=True, dir_okay=False), help="Output file.")
@click.option("--pass-pipeline", "pipeline", default=None, help="Textual pipeline, e.g. 'builtin.module(oxide-verify,cse)'.")
@click.option("--emit", type=click.Choice(["mlir", "llvm", "ptx"]), default="mlir", show_default=True, help="What to print.")
@click.option("--chip", default=DEFAULT_CHIP, show_default=True, help="GPU architecture for --emit=llvm/ptx.")
@click.option("--split-input-file", is_flag=True, help="Process each '// -----' separated chunk on its own.")
@click.option("--verify-diagnostics", is_flag=True, help="Check diagnostics against expected-* comments.")
@click.option("--mlir-print-ir-after-all", "print_after_all", is_flag=True, help="Print the IR after every pass.")
@click.option("--list-passes", is_flag=True, help="List oxide's passes and exit.")
@click.option("--emit-irdl", is_flag=True, help="Print oxide's dialects as IRDL and exit.")
@click.option("--instantiate", "instantiate", multiple=True, metavar="KERNEL=T1,T2",
              help="For .rs input: instantiate a generic kernel with these type (or const) arguments.")
@click.option("--time", "show_time", is_flag=True, help="Print how long each phase took (to stderr).")
def cli(input_file: str, output: str, pipeline: str | None, emit: str, chip: str, split_input_file: bool,
        verify_diagnostics: bool, print_after_all: bool, list_passes: bool, emit_irdl: bool,
        instantiate: tuple[str, ...], show_time: bool) -> None:
    """Parse (MLIR, or Rust kernels for a .rs input), verify, transform and lower oxide IR."""
    if list_passes or emit_irdl:
        write_output(output, pass_listing() if list_passes else irdl_text())
        return
    try:
        instances = parse_instances(instantiate)
    except OxideError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(1)
    sys.exit(run(input_file, output, pipeline, emit, chip, split_input_file, verify_diagnostics, print_after_all,
                 instances, show_time))


def run(input_file: str, output: str, pipeline: str | None, emit: str, chip: str, split: bool,
        verify_diagnostics: bool, print_after_all: bool, instances: dict[str, list[list[str]]] | None = None,
        show_time: bool = False) -> int:
    """The oxide-opt job; returns the exit status."""
    from oxide.dialects.context import make_context
    from oxide.ir.source_text import decode_source, read_source
    from oxide.passes.registry import PIPELINE_SOURCE
    from oxide.tools.expected_diagnostics import check, expectations

    name = "<stdin>" if input_file == "-" else input_file
    timings: dict[str, float] = {}
    try:
        text = decode_source(sys.stdin.buffer.read(), name) if input_file == "-" else read_source(input_file)
        start = time.perf_counter()
        context = make_context()
        timings["context"] = time.perf_counter() - start
    except OSError as exc:
        click.echo(f"error: cannot read {name}: {exc}", err=True)
        return 1
    except OxideError as exc:
        click.echo(exc.render(), err=True)
        return 1
    sources = {name: text, PIPELINE_SOURCE: pipeline or ""}
    outputs, failed, reported = [], False, []
    for chunk in split_input(text, split):
        out, diagnostics = process_chunk(chunk, name, pipeline, emit, chip, print_after_all, context, instances,
                                         timings)
        if verify_diagnostics:
            problems = check(diagnostics, expectations(chunk.text, name))
            if any(d.loc is not None and d.loc.file == PIPELINE_SOURCE for d in diagnostics):
                problems = [d for d in diagnostics if d.severity == "error"]
            diagnostics, failed = problems, failed or bool(problems)
        else:
            failed = failed or out is None
        for diag in diagnostics:
            click.echo(diag.render(sources), err=True)
        reported += diagnostics
        if out is not None:
            outputs.append(out)
    if show_time:
        for phase, seconds in timings.items():
            click.echo(f"time: {phase:24} {seconds * 1000:8.1f} ms", err=True)
    if outputs and not (verify_diagnostics and failed):
        write_output(output, ("\n" + SPLIT_MARKER + "\n").join(o.rstrip("\n") for o in outputs) + "\n")
    return 2 if exit_status(reported) == 2 else 1 if failed else 0


def write_output(output: str, text: str) -> None:
    """Write to `output` ('-' is stdout)."""
    if output == "-":
        sys.stdout.write(text)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)


def main() -> None:
    """Console entry point."""
    run_cli(cli)


if __name__ == "__main__":
    main()
