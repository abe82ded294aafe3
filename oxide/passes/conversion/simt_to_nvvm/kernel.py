"""Lowering of kernel metadata and kernel parameter facts.

`simt.launch_bounds` becomes `nvvm.maxntid`/`nvvm.minctasm`, a contract's `block` becomes `nvvm.reqntid`,
`simt.cluster_dims` becomes `nvvm.cluster_dim` (upstream prints them as `.maxntid`, `.minnctapersm`,
`.reqntid`, `.reqnctapercluster`). The contract itself stays on the
kernel for the runtime. Slice parameters get `noalias` (the runtime rejects launches where a writable
buffer overlaps any other buffer) and read-only slices `readonly`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, gpu, llvm

from oxide.dialects import simt
from oxide.dialects.simt.kernel import contract_entries
from oxide.dialects.simt.tma import TENSOR_MAP_ALIGN, TENSOR_MAP_BYTES, TensorMapType
from oxide.dialects.simt.types import DisjointType, SliceMutType, SliceType
from oxide.ir.rules import OpSet, is_op
from oxide.passes.base import OxidePass
from oxide.passes.conversion.lowering import FUNCTIONS
from oxide.passes.registry import register_pass
from oxide.passes.conversion.simt_to_nvvm.types import convert_type


def _kernels(gpu_module: ir.Operation) -> list[ir.Operation]:
    return [op.operation for op in gpu_module.regions[0].blocks[0].operations
            if is_op(op, gpu.GPUFuncOp) and "gpu.kernel" in op.operation.attributes]


def lower_kernel_metadata(gpu_module: ir.Operation) -> None:
    """Translate launch bounds and the contract's block shape into NVVM kernel attributes."""
    for kernel in _kernels(gpu_module):
        attrs = kernel.attributes
        if "simt.launch_bounds" in attrs:
            bounds = list(ir.DenseI32ArrayAttr(attrs["simt.launch_bounds"]))
            attrs["nvvm.maxntid"] = ir.DenseI32ArrayAttr.get([bounds[0], 1, 1])
            if len(bounds) == 2:
                attrs["nvvm.minctasm"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), bounds[1])
        if "simt.cluster_dims" in attrs:
            attrs["nvvm.cluster_dim"] = attrs["simt.cluster_dims"]
        if "simt.contract" in attrs:
            block = contract_entries(attrs["simt.contract"]).get("block")
            if block is not None:
                attrs["nvvm.reqntid"] = block
                # ptxas rejects .maxntid next to .reqntid; the exact block shape bounds it anyway.
                if "nvvm.maxntid" in attrs:
                    del attrs["nvvm.maxntid"]


# Ops that turn a slice element into a raw pointer: through it the buffer may be written (atomics on a
# `&[DeviceAtomicU32]`), so such a slice is not read-only memory for the kernel's lifetime, unless the
# pointer is only read through: an element of a slice of structs read in place (`a[i].x`), a view of the
# slice (`vector::as_vectors`, `slice::from_raw_parts(s.as_ptr(), n)`) that is only read, and alignment tests
# of its address.
_POINTER_ESCAPES = OpSet(simt.ElemPtrOp, simt.SlicePtrOp)
_ADDRESS_STEPS = OpSet(simt.FieldPtrOp, simt.PtrCastOp, simt.PtrOffsetOp, simt.SliceFromPtrOp, simt.ElemPtrOp,
                       simt.SlicePtrOp)
_READS = OpSet(simt.PtrLoadOp, simt.LoadOp, simt.LoadUncheckedOp, simt.VectorLoadOp, simt.LenOp)
_ALIGNMENT_TESTS = OpSet(arith.AndIOp, arith.RemUIOp)
_SLICE_READS = OpSet(simt.LoadOp, simt.LoadUncheckedOp, simt.VectorLoadOp)
COHERENT_MARKER = "oxide.coherent"


def _only_read_through(value: ir.Value) -> bool:
    """Whether every use of a pointer or slice derived from a read-only slice, followed through address
    arithmetic and views, only reads memory (or tests the address's alignment)."""
    for use in value.uses:
        user = use.owner
        if user in _ADDRESS_STEPS:
            if not _only_read_through(user.results[0]):
                return False
        elif is_op(user, simt.PtrToIntOp):
            if not all(u.owner in _ALIGNMENT_TESTS for u in user.results[0].uses):
                return False
        elif user not in _READS:
            return False
    return True


def _escapes(arg: ir.Value) -> bool:
    return any(use.owner in _POINTER_ESCAPES and not _only_read_through(use.owner.results[0])
               for use in arg.uses)


def mark_coherent_reads(gpu_module: ir.Operation) -> None:
    """Mark the reads of read-only slices whose elements escape as pointers: they must stay coherent
    (no `ld.global.nc`, no invariant load), since atomics may write those elements meanwhile."""
    for func in gpu_module.regions[0].blocks[0].operations:
        if func not in FUNCTIONS or not func.operation.regions[0].blocks:
            continue
        for arg in func.operation.regions[0].blocks[0].arguments:
            if SliceType.isinstance(arg.type) and _escapes(arg):
                for use in arg.uses:
                    if use.owner in _SLICE_READS:
                        use.owner.attributes[COHERENT_MARKER] = ir.UnitAttr.get()


# The kernel attribute listing the lowered positions of tensor-map parameters, for oxide-grid-constant-params.
GRID_CONSTANT_PARAMS = "oxide.grid_constant_params"


def parameter_attributes(gpu_module: ir.Operation) -> dict[str, list[dict[str, ir.Attribute]]]:
    """Per kernel, the attributes of each lowered parameter (computed before the signature is split); tensor-map
    parameters are recorded in the kernel's GRID_CONSTANT_PARAMS attribute instead."""
    plan: dict[str, list[dict[str, ir.Attribute]]] = {}
    unit = ir.UnitAttr.get()
    for kernel in _kernels(gpu_module):
        attrs: list[dict[str, ir.Attribute]] = []
        grid_constants: list[int] = []
        args = list(kernel.regions[0].blocks[0].arguments) if kernel.regions[0].blocks else []
        for position, arg_type in enumerate(ir.FunctionType(ir.TypeAttr(kernel.attributes["function_type"]).value).inputs):
            parts = convert_type(arg_type) or [arg_type]
            facts: dict[str, ir.Attribute] = {}
            if SliceType.isinstance(arg_type):
                # A slice whose elements escape as pointers (atomics on `&[DeviceAtomicU64]`) gets no facts:
                # with noalias, LLVM 22's NVPTX turns an atomic load it can prove read-only into an LDG and
                # asserts (SelectionDAG "Invalid child # of SDNode").
                if not (position < len(args) and _escapes(args[position])):
                    facts = {"llvm.noalias": unit, "llvm.readonly": unit}
            elif SliceMutType.isinstance(arg_type) or DisjointType.isinstance(arg_type):
                facts = {"llvm.noalias": unit}
            elif TensorMapType.isinstance(arg_type):
                grid_constants.append(len(attrs))
            attrs.append(facts)
            attrs.extend({} for _ in parts[1:])
        plan[ir.StringAttr(kernel.attributes["sym_name"]).value] = attrs
        if grid_constants:
            kernel.attributes[GRID_CONSTANT_PARAMS] = ir.DenseI32ArrayAttr.get(grid_constants)
    return plan


def apply_parameter_attributes(gpu_module: ir.Operation, plan: dict[str, list[dict[str, ir.Attribute]]]) -> None:
    """Set `arg_attrs` on each kernel from the plan."""
    for kernel in _kernels(gpu_module):
        attrs = plan.get(ir.StringAttr(kernel.attributes["sym_name"]).value)
        if attrs and any(attrs):
            kernel.attributes["arg_attrs"] = ir.ArrayAttr.get([ir.DictAttr.get(a) for a in attrs])


@register_pass
@dataclass(frozen=True)
class GridConstantParams(OxidePass):
    """Pass the tensor-map parameters of lowered kernels by value: 128 bytes, 64-byte aligned, grid-constant."""

    name = "oxide-grid-constant-params"
    verify_after = False  # it only sets LLVM argument attributes: no oxide op to verify again
    verify_ir_after = False  # nor anything MLIR verifies that the translation to LLVM IR does not read

    def run(self, module: ir.Operation) -> None:
        for gpu_module in module.regions[0].blocks[0].operations:
            if not is_op(gpu_module, gpu.GPUModuleOp):
                continue
            for func in gpu_module.regions[0].blocks[0].operations:
                if is_op(func, llvm.LLVMFuncOp) and GRID_CONSTANT_PARAMS in func.attributes:
                    _pass_by_value(func.operation)


def _pass_by_value(func: ir.Operation) -> None:
    positions = list(ir.DenseI32ArrayAttr(func.attributes[GRID_CONSTANT_PARAMS]))
    del func.attributes[GRID_CONSTANT_PARAMS]
    count = len(func.regions[0].blocks[0].arguments)  # a kernel always has a body
    existing = list(ir.ArrayAttr(func.attributes["arg_attrs"])) if "arg_attrs" in func.attributes else []
    attrs = [{a.name: a.attr for a in ir.DictAttr(d)} for d in existing] or [{} for _ in range(count)]
    descriptor = ir.TypeAttr.get(ir.Type.parse(f"!llvm.array<{TENSOR_MAP_BYTES} x i8>"))
    for position in positions:
        attrs[position].update({"llvm.byval": descriptor, "nvvm.grid_constant": ir.UnitAttr.get(),
                                "llvm.align": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), TENSOR_MAP_ALIGN)})
    func.attributes["arg_attrs"] = ir.ArrayAttr.get([ir.DictAttr.get(a) for a in attrs])
