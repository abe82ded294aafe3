"""The shared memory of one lowered tile kernel, planned against its target's limit.

A lowered tile kernel uses shared memory in two ways: static arrays (layout-conversion and reduction scratch,
mma staging, mbarriers, the TMA-store epilogue's boxes) and the launch's dynamic shared memory (the stage ring
of a GEMM pipeline, sm_90a's or the cp.async one). ptxas refuses more than 48 KiB of static arrays, while a
block may use up to the chip's opt-in limit (Target.shared_memory_per_block: 227 KiB on sm_90) once the
function's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES is raised at load. So when the static arrays pass
48 KiB, they move into the dynamic shared memory, after the ring: each `simt.shared_array` whose only uses take
its base pointer becomes that pointer into the dynamic memory at an offset of its own. Kernels within 48 KiB
keep their static arrays (their PTX is unchanged).

The result is the kernel's `tile.dynamic_shared` (ring plus moved arrays): what the artifact records, what the
runtime raises the function's limit to (checking it against the device's opt-in limit) and what each launch
passes.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.ir.declare import int_value, python_value
from oxide.ir.rules import LoweringError, is_op
from oxide.ir.walk import walk
from oxide.passes.conversion.tile_to_simt.context import bit_width, i_type
from oxide.target import Target

# The static shared memory one block may declare (CUDA's limit without the dynamic shared memory opt-in).
MAX_STATIC_SHARED = 48 * 1024
# The attribute that carries a lowered kernel's dynamic shared memory (bytes) to the artifact.
DYNAMIC_SHARED_ATTR = "tile.dynamic_shared"


@dataclass(frozen=True)
class SharedArray:
    """One static shared array of a lowered kernel: its op, size, alignment, and whether it can move into the
    dynamic shared memory (every use takes its base pointer)."""

    op: ir.Operation
    nbytes: int
    align: int
    movable: bool


@dataclass(frozen=True)
class SharedPlan:
    """Where a kernel's shared memory lives: `ring` bytes of dynamic memory first, then the `moved` arrays at
    their offsets; `static` bytes stay static arrays."""

    ring: int
    moved: tuple[tuple[SharedArray, int], ...]
    static: int

    @property
    def dynamic(self) -> int:
        """Bytes of dynamic shared memory each launch passes."""
        ends = [offset + array.nbytes for array, offset in self.moved]
        return max([self.ring, *ends])

    @property
    def total(self) -> int:
        """Bytes of shared memory one block uses."""
        return self.dynamic + self.static


def shared_arrays(func: ir.Operation) -> list[SharedArray]:
    """The static shared arrays a lowered kernel declares, in program order."""
    found: list[SharedArray] = []
    shared_array = simt.SharedArrayOp.OPERATION_NAME

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == shared_array:  # the kernel's every op is visited: a name test, not an op view per op
            elem, count = simt.SharedType.parameters_of(op.results[0].type)
            nbytes = python_value(count) * max(bit_width(elem) // 8, 1)
            movable = all(is_op(use.owner, simt.SharedPtrOp) for use in op.results[0].uses)
            found.append(SharedArray(op, nbytes, int_value(op.attributes["align"]), movable))
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    return found


def plan_shared(arrays: list[SharedArray], ring: int) -> SharedPlan:
    """Keep the arrays static when they fit in 48 KiB; else move every movable one after the `ring` bytes,
    largest alignment first (so the offsets waste the least), each at a multiple of its alignment."""
    static = sum(a.nbytes for a in arrays)
    if static <= MAX_STATIC_SHARED:
        return SharedPlan(ring, (), static)
    moved: list[tuple[SharedArray, int]] = []
    offset = ring
    for array in sorted((a for a in arrays if a.movable), key=lambda a: -a.align):
        offset = -(-offset // array.align) * array.align
        moved.append((array, offset))
        offset += array.nbytes
    return SharedPlan(ring, tuple(moved), sum(a.nbytes for a in arrays if not a.movable))


def check_shared(plan: SharedPlan, target: Target, stages: int | None) -> str | None:
    """Why the plan does not fit a block of `target` (None if it does). `stages` is the GEMM ring's stage count,
    when there is one (fewer stages is then the way out)."""
    limit = target.shared_memory_per_block
    if plan.static > MAX_STATIC_SHARED:
        return (f"this tile kernel needs {plan.static} bytes of static shared memory (arrays whose address escapes), "
                f"more than the {MAX_STATIC_SHARED} a block can declare; use smaller tiles")
    if plan.total <= limit:
        return None
    if stages:
        return (f"this tile kernel needs {plan.total - plan.ring} bytes of shared memory beside its GEMM's "
                f"{stages}-stage ring of {plan.ring} bytes, more than the {limit} a block of {target.chip} has; "
                f"compile with fewer stages (knob stages={stages - 1})")
    return (f"this tile kernel needs {plan.total} bytes of shared memory for layout conversions, reductions and "
            f"mma staging, more than the {limit} a block of {target.chip} has; use smaller tiles (or fewer "
            f"conversions between layouts)")


def place_shared(func: ir.Operation, target: Target, ring: int, stages: int | None = None) -> SharedPlan:
    """Plan kernel `func`'s shared memory beside a dynamic `ring` of that many bytes, move the arrays the plan
    moves and record `tile.dynamic_shared`; a LoweringError (unlocated) if it cannot fit `target`."""
    plan = plan_shared(shared_arrays(func), ring)
    problem = check_shared(plan, target, stages)
    if problem:
        raise LoweringError(problem)
    for array, offset in plan.moved:
        _move(array, offset)
    if plan.dynamic:
        func.attributes[DYNAMIC_SHARED_ATTR] = ir.IntegerAttr.get(i_type(64), plan.dynamic)
    return plan


def _move(array: SharedArray, offset: int) -> None:
    """Replace the array's base pointers by a pointer `offset` bytes into the dynamic shared memory."""
    op = array.op
    for use in list(op.results[0].uses):
        ptr_op = use.owner
        with ir.InsertionPoint(ptr_op), ptr_op.location:
            at = arith.ConstantOp(ir.IndexType.get(), offset).result
            moved = simt.DynamicSharedOp.build(at, align=array.align, results=[ptr_op.results[0].type])
        ptr_op.results[0].replace_all_uses_with(moved)
        ptr_op.erase()
    op.erase()
