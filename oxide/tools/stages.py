"""`oxide pipeline`: a Rust kernel file through every stage, each printed under a heading: the AST summary,
the frontend's IR (tile IR, then the simt IR after convert-tile-to-simt, for tile kernels), the IR after
convert-simt-to-nvvm (gpu/nvvm/llvm dialects), LLVM IR, and PTX. Each stage compiles afresh, because the
lowering rewrites the module in place."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator


def ast_summary(text: str, name: str) -> str:
    """The crate's items as the frontend sees them: kernels with their attributes, helpers, types."""
    from oxide.frontends.simt.items import collect, parse_attributes
    from oxide.frontends.syntax.parser import Source, parse

    source = Source(name, text)
    crate = collect(source, parse(source).root_node)
    lines = []
    for fn_name, (node, attrs) in crate.functions.items():
        parsed = parse_attributes(crate.builder(node), attrs)
        role = "kernel" if fn_name in crate.kernels else ("device fn" if parsed.get("device") else "fn")
        # Where an attribute was written is for diagnostics, not for the summary.
        extras = ", ".join(f"{k} = {v}" for k, v in parsed.items()
                           if k not in ("kernel", "device") and not k.endswith("_loc"))
        lines.append(f"{role} {fn_name}" + (f"  [{extras}]" if extras else ""))
    lines += [f"struct {s}" for s in crate.structs] + [f"enum {e}" for e in crate.enums]
    lines += [f"const {c}" for c in crate.consts]
    return "\n".join(lines) + "\n"


def stages(path: Path, chip: str, instances: dict[str, list[list[str]]]) -> Iterator[tuple[str, Callable[[], str]]]:
    """(heading, producer) per stage, every stage lowered for `chip`; producers raise OxideError on bad input."""
    from mlir.ir import MLIRError

    from oxide.backend import compile_to_llvm_ir, compile_to_ptx
    from oxide.backend.passes import TileToSimt
    from oxide.frontends import compile_source
    from oxide.frontends.tile.compile import is_tile_source
    from oxide.dialects.context import make_context
    from oxide.diagnostics import OxideError
    from oxide.ir.diagnostics import from_mlir_error
    from oxide.ir.source_text import read_source
    from oxide.passes.conversion.simt_to_nvvm import ConvertSimtToNvvm
    from oxide.passes.pipeline import Step, build_pass_manager
    from oxide.target import Target
    from oxide.tools.instances import require_kernels

    text = read_source(path)
    name = str(path)
    target = Target(chip)

    tile = is_tile_source(text)
    to_simt = TileToSimt(target).expand() if tile else []

    def fresh() -> tuple[object, object]:
        context = make_context()
        result = compile_source(text, name, context, instances)
        require_kernels(result.kernels, result.skipped_generic, name)
        return context, result.module

    def frontend_ir() -> str:
        return str(fresh()[1])

    def lowered(steps: list[Step]) -> str:
        context, module = fresh()
        with context:
            try:
                build_pass_manager(steps, context).run(module.operation)
            except MLIRError as exc:  # a kernel this chip cannot run is a located error, as in the later stages
                raise OxideError(from_mlir_error(exc)) from None
        return str(module)

    def simt() -> str:
        return lowered(to_simt)

    def nvvm() -> str:
        return lowered([*to_simt, ConvertSimtToNvvm(target)])

    def llvm() -> str:
        context, module = fresh()
        with context:
            return "\n".join(compile_to_llvm_ir(module, target).values())

    def ptx() -> str:
        context, module = fresh()
        with context:
            return "\n".join(compile_to_ptx(module, target).values())

    if tile:
        yield "tile IR (the tile frontend's output)", frontend_ir
        yield "simt IR (after convert-tile-to-simt)", simt
    else:
        yield "AST summary", lambda: ast_summary(text, name)
        yield "simt IR (the Rust frontend's output)", frontend_ir
    yield "gpu/nvvm IR (after convert-simt-to-nvvm)", nvvm
    yield f"LLVM IR ({chip}, libdevice linked)", llvm
    yield f"PTX ({chip})", ptx
