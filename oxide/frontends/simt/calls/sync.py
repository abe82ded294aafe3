"""Barriers, fences and stopping: `sync_threads()` (and its CUDA spellings), `threadfence*()`,
`warp::sync_mask(mask)` and `trap()`."""

from __future__ import annotations

from typing import Any

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.calls.scalars import u32_arg
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast

_FENCES = {"threadfence": "device", "threadfence_block": "block", "threadfence_system": "system"}


def _no_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return not args


@device_fn("sync_threads", "__syncthreads", "syncthreads", "barrier", when=_no_args)
def _sync_threads(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    simt.SyncThreadsOp.build()
    return Val(T.UNIT, None)


@device_fn(*_FENCES, when=_no_args)
def _fence(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
           loc: Any) -> Val:
    simt.ThreadFenceOp.build(scope=_FENCES[segs[-1]])
    return Val(T.UNIT, None)


@device_fn("sync_mask", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _sync_mask(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val:
    simt.WarpSyncOp.build(u32_arg(em, args[0]))
    return Val(T.UNIT, None)


@device_fn("trap", when=_no_args)
def _trap(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    simt.TrapOp.build()
    return Val(T.NEVER, None)
