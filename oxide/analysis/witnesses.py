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

from oxide.analysis.nested import nested_ops

# The trusted mints: each derives the witness from this thread's hardware registers.
MINTS = {"simt.index_1d", "simt.index_1d_u32", "simt.index_2d", "simt.index_2d_runtime", "simt.warp_index"}
# Ops that may consume a witness: queries, the DisjointSlice access, and structured control flow passing it on
# within the thread.
CONSUMERS = {"simt.index_value", "simt.index_valid", "simt.index_row", "simt.index_col", "simt.get_mut",
             "scf.yield", "scf.condition"}
# Structured ops whose results (and region arguments) carry witnesses from within the same thread.
CARRIERS = {"scf.if", "scf.for", "scf.while", "scf.execute_region"}


def is_witness(t: ir.Type) -> bool:
    """Whether `t` is, or contains, a thread index witness type."""
    return "!simt.thread_index<" in str(t)


def _misuse(user: str) -> str:
    if user in ("memref.store", "simt.store", "simt.ptr_store", "simt.shared_store", "simt.ref_store",
                "simt.volatile_store", "llvm.store", "simt.atomic_store"):
        return "a thread index witness cannot be stored in memory: it proves ownership for this thread only"
    if user in ("simt.shuffle", "simt.match_any", "simt.match_all", "simt.redux", "simt.ballot", "simt.vote"):
        return "a thread index witness cannot be sent to another thread"
    if user in ("gpu.return", "func.return", "llvm.return"):
        return "a thread index witness cannot be returned from a function: it is bound to the kernel's body"
    if user in ("func.call", "llvm.call"):
        return ("a thread index witness cannot be passed to a call: device functions are inlined, so pass the value "
                "it holds")
    return (f"a thread index witness cannot be used by `{user}`: only its queries (`get`, `is_valid`, `row`, "
            "`col`) and `DisjointSlice::get_mut` may consume it")


def witness_failures(module: Any) -> list[tuple[ir.Location, str]]:
    """(location, message) for every untrusted source or use of a witness in `module`."""
    failures: list[tuple[ir.Location, str]] = []
    for op in nested_ops(module):
        name = op.operation.name
        if name in ("gpu.func", "func.func", "llvm.func") and op.regions and op.regions[0].blocks:
            for arg in op.regions[0].blocks[0].arguments:
                if is_witness(arg.type):
                    failures.append((op.location, "a thread index witness cannot be a function parameter: "
                                     "mint it in the kernel with `thread::index_1d()` (or index_2d...)"))
        for result in op.results:
            if is_witness(result.type) and name not in MINTS and name not in CARRIERS:
                if name in ("memref.alloca", "memref.alloc", "llvm.alloca"):
                    failures.append((op.location, _misuse("memref.store")))
                else:
                    failures.append((op.location, f"a thread index witness cannot come from `{name}`: only "
                                     "`thread::index_1d()`, `index_2d::<S>()`, `index_2d_runtime()` and "
                                     "`warp_index()` create one"))
        if name not in CONSUMERS:
            for operand in op.operands:
                if is_witness(operand.type):
                    failures.append((op.location, _misuse(name)))
                    break
    return failures
