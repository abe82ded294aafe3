"""The kernel module every frontend fills: one `gpu.module @kernels` inside a `builtin.module`, what each
kernel instance takes (KernelParam, KernelInfo), and the driver that emits every kernel of a file.

A frontend reads its source into named kernel functions and emits one instance of a kernel at a time;
`compile_module` runs the instances in order, and `settle_literals` re-emits an instance until the types of
its unsuffixed literals settle (a frontend infers a literal's type from a later use by raising Retype there).
Entry names are the same for every frontend: `<kernel>_<arg>_<arg>` (`scale_f32`, `tile_f32_16`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

from mlir import ir
from mlir.dialects import gpu

from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err
from oxide.diagnostics import SourceLoc

GPU_MODULE = "kernels"
# How many times one kernel instance is re-emitted before its literal types are called unsettled: each
# re-emission settles at least one `let`, so this bounds the `let`s of unsuffixed literals a kernel may have
# whose types come from later uses.
MAX_RETYPES = 32

Ty = TypeVar("Ty")


@dataclass
class KernelParam:
    """One Rust parameter and how it reaches the kernel: its Rust type and its MLIR types."""

    name: str
    rust_type: str
    mlir_types: list[str]
    elem_layout: dict[str, Any] = field(default_factory=dict)  # buffers of structs/arrays: T.element_layout


@dataclass
class KernelInfo:
    """A compiled kernel's entry name and parameters."""

    name: str
    entry: str
    params: list[KernelParam]
    contract: dict[str, Any] = field(default_factory=dict)
    launch_bounds: list[int] = field(default_factory=list)
    cluster_dims: list[int] = field(default_factory=list)  # #[cluster_launch(x, y, z)]
    cooperative: bool = False  # #[cooperative_launch]: a hidden grid-barrier workspace follows the parameters


@dataclass
class FrontendResult:
    """The module and what is in it; `timings` are seconds per phase."""

    module: Any
    owner: Any
    kernels: list[KernelInfo]
    skipped_generic: list[str]
    timings: dict[str, float]


class Retype(Exception, Generic[Ty]):
    """A variable initialised by an unsuffixed literal met a value of another type: emit the kernel again
    with that variable (its `let`, by id) typed so. This is how a one-pass emitter does Rust's inference of
    literal types from later uses."""

    def __init__(self, let_id: int, ty: Ty):
        super().__init__(f"retype let {let_id} as {ty}")
        self.let_id = let_id
        self.ty = ty


def location(loc: SourceLoc | None) -> ir.Location:
    """The MLIR location of a source position."""
    return ir.Location.file(loc.file, loc.line, loc.col) if loc is not None else ir.Location.unknown()


def param_name(p: ast.Param) -> str:
    """The name a kernel or helper parameter binds (`_` for a pattern that binds none or several)."""
    return p.pattern.name if isinstance(p.pattern, ast.BindPat) else "_"


def entry_name(fn: ast.Function, type_args: list[str]) -> str:
    """The deterministic entry name of a kernel instance."""
    if not type_args:
        return fn.name
    return fn.name + "_" + "_".join(a.replace("::", "_").replace("<", "_").replace(">", "").replace(", ", "_")
                                    for a in type_args)


def bind_generics(fn: ast.Function, args: list[str], type_arg: Callable[[ast.Generic, str], Any],
                  const_arg: Callable[[ast.Generic, str], Any]) -> dict[str, Any]:
    """A kernel instance's generic parameters by name, from the instantiation's arguments in order: each
    frontend reads a type argument (`type_arg`) and a const argument (`const_arg`) its own way."""
    if len(args) != len(fn.generics):
        raise err(fn.loc, f"kernel `{fn.name}` has {len(fn.generics)} generic parameter(s) "
                          f"({', '.join(g.name for g in fn.generics)}), {len(args)} given")
    return {g.name: (type_arg if g.const_ty is None else const_arg)(g, arg) for g, arg in zip(fn.generics, args)}


def new_kernel_module() -> tuple[ir.Module, Any]:
    """An empty `builtin.module` marked `gpu.container_module` holding one empty `gpu.module @kernels`, which
    the frontends fill with kernels (in the current context and location)."""
    owner = ir.Module.create()
    owner.operation.attributes["gpu.container_module"] = ir.UnitAttr.get()
    with ir.InsertionPoint(owner.body):
        module = gpu.GPUModuleOp(GPU_MODULE)
        module.bodyRegion.blocks.append()
    return owner, module


def settle_literals(fn: ast.Function, emit_once: Callable[[dict[int, Ty]], KernelInfo]) -> KernelInfo:
    """Emit one kernel instance with `emit_once(retypes)`; on Retype, record the `let`'s type and emit again
    (an instance that fails leaves nothing in the module: `emit_once` erases what it began)."""
    retypes: dict[int, Ty] = {}
    for _ in range(MAX_RETYPES):
        try:
            return emit_once(retypes)
        except Retype as again:
            retypes[again.let_id] = again.ty
    raise err(fn.loc, "internal error: the literal types of this kernel do not settle")


@dataclass
class KernelSource:
    """What the driver needs of a frontend for one file: its kernels by name, in order, and for each how it
    is checked, which instances a generic one has, and how one instance is emitted into the gpu.module."""

    kernels: list[str]
    function: Callable[[str], ast.Function]
    check: Callable[[ast.Function], None]
    requested: Callable[[ast.Function], list[list[str]] | None]
    emit: Callable[[ast.Function, Any, list[str]], KernelInfo]


def compile_module(name: str, context: ir.Context, source: KernelSource, timings: dict[str, float]) -> FrontendResult:
    """Every kernel of `source` into a new kernel module (in `context`): a generic kernel once per requested
    instance, or skipped when none is requested. Adds the "check+emit" phase to `timings`."""
    start = time.perf_counter()
    with context, ir.Location.file(name, 1, 1):
        owner, module = new_kernel_module()
        kernels: list[KernelInfo] = []
        skipped: list[str] = []
        for kernel_name in source.kernels:
            fn = source.function(kernel_name)
            source.check(fn)
            if fn.generics:
                requested = source.requested(fn)
                if not requested:
                    skipped.append(kernel_name)
                    continue
                for type_args in requested:
                    kernels.append(source.emit(fn, module, type_args))
            else:
                kernels.append(source.emit(fn, module, []))
    timings["check+emit"] = time.perf_counter() - start
    return FrontendResult(owner.operation.opview, owner, kernels, skipped, timings)


def returns_nothing(fn: ast.Function) -> bool:
    """Whether a kernel is declared without a return value (none written, or `-> ()`)."""
    return fn.ret is None or isinstance(fn.ret, ast.TupleTy) and not fn.ret.elems
