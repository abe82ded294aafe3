"""cuda_device's constant memory: `#[constant] static X: ConstantMemory<T> = ConstantMemory::UNINIT;` at module
level, read in kernels with `X.get()` (by value) or `X.get_ref()` (a reference: `X.get_ref()[i]` reads one
element where it lies, not a copy of the array). T is a scalar or an array of scalars. The host writes the
variable (by its name, `X`) before launching; each one becomes an `llvm.mlir.global` in address space 4 of the
gpu.module (PTX `.const`), declared the first time a kernel reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, memref, scf

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.values import Val, array_shape, load_cell, new_cell

_CONSTANT_SPACE = 4


@dataclass(frozen=True)
class ConstantMemoryTy(T.Ty):
    """`ConstantMemory<T>`: the handle of one constant-memory variable (its value is the variable's address)."""

    value: T.Ty
    symbol: str = ""

    def rust(self) -> str:
        return f"ConstantMemory<{self.value.rust()}>"


def constant_memory_type(em: Emitter, t: ast.PathTy) -> T.Ty | None:
    """The type `ConstantMemory<T>`, or None for another name."""
    if t.name != "ConstantMemory" or len(t.args) != 1:
        return None
    value = em.resolve_type(t.args[0])
    dims, scalar = array_shape(value) if isinstance(value, T.Array) else ([], value)
    if len(dims) > 1 or not isinstance(scalar, (T.Int, T.Float)):
        raise err(t.loc, f"`ConstantMemory<{value}>` is not supported in device code (a scalar or an array of "
                         "integers or floats)")
    return ConstantMemoryTy(value)


def _global_type(ty: T.Ty) -> tuple[str, str]:
    """(the LLVM type, a zero initializer) of a constant-memory variable."""
    if isinstance(ty, T.Array):
        elem = str(ty.elem.mlir())
        zero = "0.0" if isinstance(ty.elem, T.Float) else "0"
        return f"!llvm.array<{ty.length} x {elem}>", f"dense<{zero}> : tensor<{ty.length}x{elem}>"
    return str(ty.mlir()), f"{'0.0' if isinstance(ty, T.Float) else '0'} : {ty.mlir()}"


def constant_memory_handle(em: Emitter, name: str, ty: ConstantMemoryTy) -> Val:
    """The handle of the variable `name`: its global is declared in the gpu.module on first use."""
    gpu_module = em.entry.owner.parent
    body = gpu_module.regions[0].blocks[0]
    exists = any("sym_name" in op.attributes and ir.StringAttr(op.attributes["sym_name"]).value == name
                 for op in body.operations)
    if not exists:
        llvm_type, zero = _global_type(ty.value)
        # External and not `constant`: the host writes it, so LLVM must not fold loads to the zero placeholder.
        text = (f"llvm.mlir.global external @{name}({zero}) {{addr_space = {_CONSTANT_SPACE} : i32}} : {llvm_type}")
        with ir.InsertionPoint.at_block_begin(body):
            ir.InsertionPoint.current.insert(ir.Operation.parse(text))
    elem = ty.value.elem if isinstance(ty.value, T.Array) else ty.value
    ptr = T.Ptr(elem, False, _CONSTANT_SPACE)
    return Val(ConstantMemoryTy(ty.value, name), simt.ConstantAddrOp.build(symbol=name, results=[ptr.mlir()]))


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


@device_method(ConstantMemoryTy, "get", when=_no_args)
def _get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    value = recv.ty.value
    if not isinstance(value, T.Array):
        return Val(value, simt.PtrLoadOp.build(recv.v))
    # An array comes by value: copied element by element into a local array.
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(value)
    loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), arith.constant(ir.IndexType.get(), value.length),
                     arith.constant(ir.IndexType.get(), 1))
    with ir.InsertionPoint(loop.body):
        i = loop.induction_variable
        memref.store(simt.PtrLoadOp.build(simt.PtrOffsetOp.build(recv.v, i)), cell.leaves, [i])
        scf.YieldOp([])
    return load_cell(cell)


@device_method(ConstantMemoryTy, "get_ref", when=_no_args)
def _get_ref(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    """`X.get_ref()`: `&T` of the variable; an array is a reference into constant memory (indexing it reads
    just that element), a scalar is read (a `&T` of a Copy value is its value here)."""
    value = recv.ty.value
    if not isinstance(value, T.Array):
        return Val(value, simt.PtrLoadOp.build(recv.v))
    array = T.Ptr(value, False, _CONSTANT_SPACE)
    return Val(T.PlaceRef(value, False, _CONSTANT_SPACE), simt.PtrCastOp.build(recv.v, results=[array.mlir()]))
