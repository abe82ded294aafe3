"""cutile-rs pointer-tile loads and stores, for `unsafe fn` kernels with `*mut E` parameters:

    let (tile, token) = load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(0.0f32),
                                     None, Latency::<0>);
    store_ptr_tko(ptrs, values, ordering::Weak, None::<scope::TileBlock>, Some(mask), None, Latency::<0>);

`load_ptr_tko` becomes one `tile.load_ptr` and returns `(Tile<E, S>, Token)`; `store_ptr_tko` one
`tile.store_ptr` and returns a `Token`. The optional arguments are `Some(x)` or `None`: no mask means every
element, no padding means 0. Tokens are carried along (oxide orders a block's memory accesses by program order
already); the latency hint is ignored. These are plain (weak) accesses: `ordering::Weak`/`Relaxed` with no scope
or `scope::TileBlock`/`Device` are accepted, an acquire or release ordering is an error, never silently
weakened. As for atomics, nothing checks what a raw pointer may overlap: that is why these kernels are `unsafe`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oxide.dialects import tile
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.ops import arg_loc, check_arity, tile_arg
from oxide.frontends.tile.ops_atomic import PointerTileT, TokenT
from oxide.frontends.tile.registry import TileEmitter, function
from oxide.frontends.tile.types import BOOL, MarkerT, TileT, TupleT, V, rust_name

_ORDERINGS = ("Weak", "Relaxed")
_SCOPES = ("TileBlock", "Device")
_LOAD_USAGE = ("load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(padding), None, "
               "Latency::<0>)")
_STORE_USAGE = ("store_ptr_tko(ptrs, values, ordering::Weak, None::<scope::TileBlock>, Some(mask), None, "
                "Latency::<0>)")


@dataclass(frozen=True)
class SomeT:
    """`Some(x)`: an optional argument that is given (only the pointer-tile operations take one)."""

    inner: Any

    def rust(self) -> str:
        return f"Option<{rust_name(self.inner)}>"


@function("Some")
def _some(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "Some(value)")
    return V(SomeT(args[0].ty), None, None, [args[0]])


def _is_none(v: V) -> bool:
    return isinstance(v.ty, MarkerT) and v.const == "None"


def _optional(e: Any, v: V, i: int, what: str) -> V | None:
    """The value of an optional argument: `Some(x)` gives x, `None` nothing; anything else is an error."""
    if _is_none(v):
        return None
    if isinstance(v.ty, SomeT):
        return v.parts[0]
    raise err(arg_loc(e, i), f"argument {i + 1} is {what}: `Some(..)` or `None`, found `{rust_name(v.ty)}`")


def _marker_leaf(v: V) -> tuple[str, str]:
    text = v.const if isinstance(v.ty, MarkerT) and isinstance(v.const, str) else ""
    module, _, leaf = text.rpartition("::")
    return module, leaf


def _check_ordering(e: Any, args: list[V], first: int) -> None:
    """The ordering marker, the optional scope and the latency hint of a pointer-tile access."""
    module, leaf = _marker_leaf(args[first])
    if not module.endswith("ordering") or leaf not in _ORDERINGS:
        raise err(arg_loc(e, first), f"a pointer-tile access is a plain (weak) one: the ordering is "
                                     f"`ordering::Weak` or `ordering::Relaxed`, found "
                                     f"`{args[first].const or rust_name(args[first].ty)}`")
    scope = _optional(e, args[first + 1], first + 1, "the scope")
    if scope is not None:
        module, leaf = _marker_leaf(scope)
        if not module.endswith("scope") or leaf not in _SCOPES:
            raise err(arg_loc(e, first + 1), f"the scope is `None`, `scope::TileBlock` or `scope::Device`, found "
                                             f"`{scope.const or rust_name(scope.ty)}`")
    latency = args[-1]
    if not (isinstance(latency.ty, MarkerT) and latency.const == "Latency"):
        raise err(arg_loc(e, len(args) - 1), "the last argument is the latency hint `Latency::<N>`")


def _mask(e: Any, v: V, i: int, pt: PointerTileT) -> Any:
    """The mask tile (all true when `None`)."""
    mask = _optional(e, v, i, "the mask")
    want = TileT(BOOL, pt.shape)
    if mask is None:
        return vals.tile_const(True, want).value
    if mask.ty != want:
        raise err(arg_loc(e, i), f"the mask is a `{rust_name(want)}` (which elements take part), found "
                                 f"`{rust_name(mask.ty)}`")
    return mask.value


def _token(e: Any, v: V, i: int) -> None:
    token = _optional(e, v, i, "the token") if not isinstance(v.ty, TokenT) else v
    if token is not None and not isinstance(token.ty, TokenT):
        raise err(arg_loc(e, i), f"the token argument is `None` or `Some(token)`, found `{rust_name(token.ty)}`")


def _pointer_tile(e: Any, v: V) -> PointerTileT:
    if not isinstance(v.ty, PointerTileT):
        raise err(arg_loc(e, 0), f"expected a pointer tile (from `pointer_to_tile(p)`), found `{rust_name(v.ty)}`")
    return v.ty


@function("load_ptr_tko")
def _load_ptr(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 7, name, _LOAD_USAGE)
    pt = _pointer_tile(e, args[0])
    _check_ordering(e, args, 1)
    mask = _mask(e, args[3], 3, pt)
    given = _optional(e, args[4], 4, "the padding")
    padding = vals.scalar_const(0, pt.elem) if given is None else vals.coerce(given, pt.elem, arg_loc(e, 4),
                                                                                "the padding")
    _token(e, args[5], 5)
    result = TileT(pt.elem, pt.shape)
    loaded = tile.LoadPtrOp.build(args[0].parts[0].value, args[0].parts[1].value, mask, padding.value,
                                  results=[result.mlir()])
    return V(TupleT((result, TokenT())), None, None, [V(result, loaded), V(TokenT())])


@function("store_ptr_tko")
def _store_ptr(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 7, name, _STORE_USAGE)
    pt = _pointer_tile(e, args[0])
    values = tile_arg(e, args[1], 1, "the values")
    if values != TileT(pt.elem, pt.shape):
        raise err(arg_loc(e, 1), f"the values stored through `{rust_name(pt)}` are a "
                                 f"`{rust_name(TileT(pt.elem, pt.shape))}`, found `{rust_name(values)}`")
    _check_ordering(e, args, 2)
    mask = _mask(e, args[4], 4, pt)
    _token(e, args[5], 5)
    tile.StorePtrOp(args[0].parts[0].value, args[0].parts[1].value, args[1].value, mask)
    return V(TokenT())
