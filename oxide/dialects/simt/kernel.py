"""Kernel metadata: attributes a simt kernel (`gpu.func ... kernel`) carries, and their verifiers.

    simt.launch_bounds = array<i32: MAX_THREADS[, MIN_BLOCKS]>     #[launch_bounds(...)]: .maxntid/.minnctapersm
    simt.cluster_dims = array<i32: X, Y, Z>                          #[cluster_launch(...)]: .reqnctapercluster
    simt.cooperative                                                 #[cooperative_launch]: grid-wide sync
    simt.contract = {domain = 1, block = array<i32: 256, 1, 1>, coordinates = "u32",
                     dynamic_shared = 4096, dynamic_shared_alignment = 16, ...}
                                                                    #[launch_contract(...)]

The contract states facts the runtime checks at every launch; the compiler may rely on them (a proven
`domain = 1` makes `index_1d` witnesses valid without a device check; `block` becomes `.reqntid`).

Slice parameters are `noalias` (and `readonly` for `&[T]`); PTX marks them `.ptr .global`.
"""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.declare import VerifyError, python_value, read_attribute, read_int_array

# The hidden last parameter of a cooperative kernel: the launch's grid-barrier workspace (simt.grid_sync).
WORKSPACE_TYPE = "!simt.ptr<i32, 1>"

CONTRACT_KEYS = {
    "domain": "the launch's dimensionality: 1, 2 or 3",
    "block": "the exact block shape, array<i32: x, y, z>",
    "coordinates": "\"u32\" when grid x block fits in 32 bits",
    "dynamic_shared": "exact dynamic shared memory in bytes",
    "dynamic_shared_min": "smallest dynamic shared memory in bytes",
    "dynamic_shared_max": "largest dynamic shared memory in bytes",
    "dynamic_shared_alignment": "alignment of dynamic shared memory in bytes",
    "min_compute_capability": "array<i32: major, minor>",
    "requires": "relations between scalar parameters, as strings",
}


def _kernel_only(op: ir.Operation, what: str) -> None:
    # After convert-gpu-to-nvvm the kernel is an llvm.func marked nvvm.kernel; the contract stays on it.
    is_kernel = (op.name == "gpu.func" and "gpu.kernel" in op.attributes) or \
        (op.name == "llvm.func" and "nvvm.kernel" in op.attributes)
    if not is_kernel:
        raise VerifyError(f"{what} belongs on a kernel (gpu.func with the `kernel` keyword)")


def _ints(attr: ir.Attribute, what: str) -> list[int]:
    return read_int_array(lambda: attr, what, ir.DenseI32ArrayAttr)


@DIALECT.discardable_attribute("simt.launch_bounds")
def verify_launch_bounds(op: ir.Operation, attr: ir.Attribute) -> None:
    """`array<i32: max_threads[, min_blocks]>` on a kernel, max_threads in 1..1024.

    From `#[launch_bounds(MAX, MIN)]`; PTX `.maxntid MAX, 1, 1` and `.minnctapersm MIN`.
    """
    _kernel_only(op, "simt.launch_bounds")
    values = _ints(attr, "simt.launch_bounds")
    if not 1 <= len(values) <= 2 or not 1 <= values[0] <= 1024 or (len(values) == 2 and values[1] < 1):
        raise VerifyError(f"expected array<i32: max_threads (1..1024)[, min_blocks (>= 1)]>, got {attr}")


@DIALECT.discardable_attribute("simt.cluster_dims")
def verify_cluster_dims(op: ir.Operation, attr: ir.Attribute) -> None:
    """`array<i32: x, y, z>` on a kernel: the thread-block cluster shape, at most 8 blocks (the portable
    cluster size of sm_90)."""
    _kernel_only(op, "simt.cluster_dims")
    values = _ints(attr, "simt.cluster_dims")
    if len(values) != 3 or any(v < 1 for v in values) or values[0] * values[1] * values[2] > 8:
        raise VerifyError(f"expected array<i32: x, y, z> of at most 8 blocks in all, got {attr}")


@DIALECT.discardable_attribute("simt.cooperative")
def verify_cooperative(op: ir.Operation, attr: ir.Attribute) -> None:
    """A unit attribute on a kernel: it is launched cooperatively (every block co-resident), so it may
    synchronise the whole grid (`simt.grid_sync`). Its last parameter is then the launch's grid-barrier
    workspace, `!simt.ptr<i32, 1>`, which the runtime allocates and passes; it is no Rust parameter."""
    _kernel_only(op, "simt.cooperative")
    if not isinstance(attr.maybe_downcast(), ir.UnitAttr):
        raise VerifyError(f"simt.cooperative is a unit attribute (no value), got {attr}")
    if op.name == "gpu.func":
        inputs = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value).inputs
        if not inputs or inputs[-1] != ir.Type.parse(WORKSPACE_TYPE):
            raise VerifyError(f"a cooperative kernel's last parameter is its grid-barrier workspace, {WORKSPACE_TYPE}")


def contract_entries(attr: ir.Attribute) -> dict[str, Any]:
    """A contract dictionary as Python values."""
    entries = ir.DictAttr(attr)
    # Look fields up by name: reading a NamedAttribute's `.attr` of a type the bindings cannot downcast
    # aborts the process, while a lookup by name raises a TypeError that read_attribute turns into an error.
    names = [entries[i].name for i in range(len(entries))]
    return {name: read_attribute(lambda: entries[name], f"contract field '{name}'",
                                 CONTRACT_KEYS.get(name, "a known contract field"))
            for name in names}


@DIALECT.discardable_attribute("simt.contract")
def verify_contract(op: ir.Operation, attr: ir.Attribute) -> None:
    """A launch contract: known keys, well-formed values, `domain` present.

    From `#[launch_contract(...)]`: `{domain = 1, block = array<i32: x, y, z>, coordinates = "u32",
    dynamic_shared = N, dynamic_shared_min/max, dynamic_shared_alignment, min_compute_capability, requires}`.
    `block` becomes `.reqntid x, y, z`, a constant `blockDim` and thread-id ranges; `domain` proves witnesses
    valid. The contract stays on the kernel for the runtime to check at every launch.
    """
    _kernel_only(op, "simt.contract")
    if not isinstance(attr.maybe_downcast(), ir.DictAttr):
        raise VerifyError(f"expected a dictionary, got {attr}")
    entries = contract_entries(attr)
    for key in entries:
        if key not in CONTRACT_KEYS:
            raise VerifyError(f"unknown contract field '{key}' (known: {', '.join(CONTRACT_KEYS)})")
    if "domain" not in entries:
        raise VerifyError("a contract must state its domain (1, 2 or 3)")
    if python_value(entries["domain"]) not in (1, 2, 3):
        raise VerifyError(f"domain must be 1, 2 or 3, got {entries['domain']}")
    if "block" in entries:
        block = _ints(entries["block"], "block")
        if len(block) != 3 or min(block) < 1 or block[0] * block[1] * block[2] > 1024:
            raise VerifyError(f"block must be array<i32: x, y, z> with 1..1024 threads in all, got {entries['block']}")
    if "coordinates" in entries and python_value(entries["coordinates"]) != "u32":
        raise VerifyError(f"coordinates can only be \"u32\", got {entries['coordinates']}")
    for key in ("dynamic_shared", "dynamic_shared_min", "dynamic_shared_max", "dynamic_shared_alignment"):
        if key in entries and not isinstance(python_value(entries[key]), int):
            raise VerifyError(f"{key} must be an integer, got {entries[key]}")
