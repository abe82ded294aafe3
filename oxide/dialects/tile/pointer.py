"""tile pointer-tile loads and stores (`load_ptr_tko` / `store_ptr_tko` in `unsafe fn` kernels): a gather and
a scatter through a raw `*mut E` parameter and a tile of element offsets from it.

A masked-off element is neither read nor written: a load yields `padding` there. Nothing bounds a raw pointer
on the GPU (that is why these kernels are `unsafe`); the emulator traps an offset outside the buffer. Two
elements of one store that name the same address race: which value lands is unspecified.
"""

from __future__ import annotations

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.types import PtrType, check_tile, elem_of
from oxide.ir.constraints import AnyType, BaseOf
from oxide.ir.declare import Op, Operand, Result, VerifyError

TILE = BaseOf("!builtin.tensor")


def _check_access(ptr: object, offsets: object, mask: object, data: object, what: str) -> None:
    """offsets, mask and data tiles of one shape; data of the pointer's element type; i32/i64 offsets."""
    shape = check_tile(data, what)
    for value, name in ((offsets, "offsets"), (mask, "mask")):
        if check_tile(value, name) != shape:
            raise VerifyError(f"the {name} tile has shape {check_tile(value, name)}, but {what} has shape {shape}")
    if str(elem_of(data)) != str(elem_of(ptr)):
        raise VerifyError(f"{what} has elements of type {elem_of(data)}, but the pointer is a *mut {elem_of(ptr)}")
    if str(elem_of(offsets)) not in ("i32", "i64"):
        raise VerifyError("pointer offsets must be an i32 or i64 tile")
    if str(elem_of(mask)) != "i1":
        raise VerifyError("the mask must be an i1 tile")


@DIALECT.op
class LoadPtrOp(Op):
    """`load_ptr_tko(ptrs, .., mask, padding, ..)`: for every element where `mask` holds, read
    `ptr[offsets]`; elsewhere the element is `padding`."""

    mnemonic = "load_ptr"
    ptr = Operand(BaseOf(PtrType))
    offsets = Operand(TILE, "element offsets from ptr (i32 or i64 tile)")
    mask = Operand(TILE, "i1 tile: which elements are read")
    padding = Operand(AnyType(), "the value of a masked-off element (a scalar of the element type)")
    result = Result(TILE)

    def verify_(self) -> None:
        _check_access(self.ptr.type, self.offsets.type, self.mask.type, self.result.type, "the loaded tile")
        if str(self.padding.type) != str(elem_of(self.result.type)):
            raise VerifyError(f"the padding is a {self.padding.type}, the loaded elements {elem_of(self.result.type)}")


@DIALECT.op
class StorePtrOp(Op):
    """`store_ptr_tko(ptrs, values, .., mask, ..)`: for every element where `mask` holds, write it to
    `ptr[offsets]`."""

    mnemonic = "store_ptr"
    ptr = Operand(BaseOf(PtrType))
    offsets = Operand(TILE, "element offsets from ptr (i32 or i64 tile)")
    values = Operand(TILE)
    mask = Operand(TILE, "i1 tile: which elements are written")

    def verify_(self) -> None:
        _check_access(self.ptr.type, self.offsets.type, self.mask.type, self.values.type, "the stored tile")
