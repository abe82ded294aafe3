"""Witness provenance: a `ThreadIndex` value (`!simt.thread_index<...>`) comes only from a trusted index
function and is only ever consumed by a query or a DisjointSlice access of the same thread.

The Rust frontend already refuses to copy, store or return a witness; this check holds the same line for
any simt IR (hand-written, or from another frontend), where nothing else would stop a witness from being
stored to memory, passed through a shuffle, rebuilt from an integer with a cast, or taken as a kernel
parameter - each of which would let two threads write the same DisjointSlice element.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import func, gpu, llvm, memref, scf

from oxide.analysis.nested import nested_ops
from oxide.dialects import simt
from oxide.ir.rules import OpSet

# The trusted mints: each derives the witness from this thread's hardware registers.
MINTS = OpSet(simt.Index1DOp, simt.Index1DU32Op, simt.Index2DOp, simt.Index2DRuntimeOp, simt.WarpIndexOp)
# Ops that may consume a witness: queries, the DisjointSlice access, and structured control flow passing it on
# within the thread.
CONSUMERS = OpSet(simt.IndexValueOp, simt.IndexValidOp, simt.IndexRowOp, simt.IndexColOp, simt.GetMutOp,
                  scf.YieldOp, scf.ConditionOp)
# Structured ops whose results (and region arguments) carry witnesses from within the same thread.
CARRIERS = OpSet(scf.IfOp, scf.ForOp, scf.WhileOp, scf.ExecuteRegionOp)
_FUNCTIONS = OpSet(gpu.GPUFuncOp, func.FuncOp, llvm.LLVMFuncOp)
_ALLOCATIONS = OpSet(memref.AllocaOp, memref.AllocOp, llvm.AllocaOp)
_STORES = OpSet(memref.StoreOp, simt.StoreOp, simt.PtrStoreOp, simt.SharedStoreOp, simt.RefStoreOp,
                simt.VolatileStoreOp, llvm.StoreOp, simt.AtomicStoreOp)
_CROSS_THREAD = OpSet(simt.ShuffleOp, simt.MatchAnyOp, simt.MatchAllOp, simt.ReduxOp, simt.BallotOp, simt.VoteOp)
_RETURNS = OpSet(gpu.ReturnOp, func.ReturnOp, llvm.ReturnOp)
_CALLS = OpSet(func.CallOp, llvm.CallOp)


def is_witness(t: ir.Type) -> bool:
    """Whether `t` is, or contains, a thread index witness type."""
    return "!simt.thread_index<" in str(t)


def _misuse(user: str) -> str:
    """What is wrong with the op named `user` taking a witness."""
    if user in _STORES.names:
        return "a thread index witness cannot be stored in memory: it proves ownership for this thread only"
    if user in _CROSS_THREAD.names:
        return "a thread index witness cannot be sent to another thread"
    if user in _RETURNS.names:
        return "a thread index witness cannot be returned from a function: it is bound to the kernel's body"
    if user in _CALLS.names:
        return ("a thread index witness cannot be passed to a call: device functions are inlined, so pass the value "
                "it holds")
    return (f"a thread index witness cannot be used by `{user}`: only its queries (`get`, `is_valid`, `row`, "
            "`col`) and `DisjointSlice::get_mut` may consume it")


def witness_failures(module: Any) -> list[tuple[ir.Location, str]]:
    """(location, message) for every untrusted source or use of a witness in `module`."""
    failures: list[tuple[ir.Location, str]] = []
    for op in nested_ops(module):
        name = op.operation.name
        if op in _FUNCTIONS and op.regions and op.regions[0].blocks:
            for arg in op.regions[0].blocks[0].arguments:
                if is_witness(arg.type):
                    failures.append((op.location, "a thread index witness cannot be a function parameter: "
                                     "mint it in the kernel with `thread::index_1d()` (or index_2d...)"))
        for result in op.results:
            if is_witness(result.type) and op not in MINTS and op not in CARRIERS:
                if op in _ALLOCATIONS:
                    failures.append((op.location, _misuse(memref.StoreOp.OPERATION_NAME)))
                else:
                    failures.append((op.location, f"a thread index witness cannot come from `{name}`: only "
                                     "`thread::index_1d()`, `index_2d::<S>()`, `index_2d_runtime()` and "
                                     "`warp_index()` create one"))
        if op not in CONSUMERS:
            for operand in op.operands:
                if is_witness(operand.type):
                    failures.append((op.location, _misuse(name)))
                    break
    return failures
