"""`oxide pipeline`: a Rust kernel file through every stage, each printed under a heading: the AST summary,
the simt IR, the IR after convert-simt-to-nvvm (gpu/nvvm/llvm dialects), LLVM IR, and PTX. Each stage
compiles afresh, because the lowering rewrites the module in place."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator


def ast_summary(text: str, name: str) -> str:
    """The crate's items as the frontend sees them: kernels with their attributes, helpers, types."""
    from oxide.frontends.rust.items import collect, parse_attributes
    from oxide.frontends.rust.parser import Source, parse

    source = Source(name, text)
    crate = collect(source, parse(source).root_node)
    lines = []
    for fn_name, (_, attrs) in crate.functions.items():
        parsed = parse_attributes(crate.builder(), attrs)
        role = "kernel" if fn_name in crate.kernels else ("device fn" if parsed.get("device") else "fn")
        extras = ", ".join(f"{k} = {v}" for k, v in parsed.items() if k not in ("kernel", "device"))
        lines.append(f"{role} {fn_name}" + (f"  [{extras}]" if extras else ""))
    lines += [f"struct {s}" for s in crate.structs] + [f"enum {e}" for e in crate.enums]
    lines += [f"const {c}" for c in crate.consts]
    return "\n".join(lines) + "\n"


def stages(path: Path, chip: str, instances: dict[str, list[list[str]]]) -> Iterator[tuple[str, Callable[[], str]]]:
    """(heading, producer) per stage; producers raise OxideError on bad input."""
    from oxide.backend import Target, compile_to_llvm_ir, compile_to_ptx
    from oxide.frontends.rust.compile import compile_rust
    from oxide.ir.context import make_context
    from oxide.passes.pipeline import build_pass_manager

    text = path.read_text(encoding="utf-8")
    name = str(path)
    target = Target(chip)

    def fresh() -> tuple[object, object]:
        context = make_context()
        return context, compile_rust(text, name, context, instances).module

    def simt() -> str:
        return str(fresh()[1])

    def nvvm() -> str:
        context, module = fresh()
        with context:
            build_pass_manager("convert-simt-to-nvvm", context).run(module.operation)
        return str(module)

    def llvm() -> str:
        context, module = fresh()
        with context:
            return "\n".join(compile_to_llvm_ir(module, target).values())

    def ptx() -> str:
        context, module = fresh()
        with context:
            return "\n".join(compile_to_ptx(module, target).values())

    yield "AST summary", lambda: ast_summary(text, name)
    yield "simt IR (the Rust frontend's output)", simt
    yield "gpu/nvvm IR (after convert-simt-to-nvvm)", nvvm
    yield f"LLVM IR ({chip}, libdevice linked)", llvm
    yield f"PTX ({chip})", ptx
