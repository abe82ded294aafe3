"""Pointer tiles and `atomic_rmw_tko` in `unsafe fn` tile kernels: the IR they give, and their rejections."""

from __future__ import annotations

from tests.unit.frontends.tile.helpers import check, ir_text, kernel, reject

PARAMS = "counts: *mut i32, x: &Tensor<i32, {[-1]}>"
ATOMIC = ("let v: Tile<i32, {[128]}> = x.partition(const_shape![128]).load([0i32]);\n"
          "let p = pointer_to_tile(counts).broadcast(const_shape![128]).offset_tile(v);\n"
          "let m = gt_tile(v, constant(-1i32, const_shape![128]));\n")


def _atomic(kind: str = "atomic::Add", ordering: str = "ordering::Relaxed", scope: str = "scope::Device",
            values: str = "constant(1i32, const_shape![128])", mask: str = "m") -> str:
    return kernel(ATOMIC + f"let (old, _t) = atomic_rmw_tko(p, {values}, {kind}, {ordering}, {scope}, {mask}, "
                           "new_token_unordered());", params=PARAMS, unsafe=True)


def test_atomic_add_through_a_pointer_tile():
    text = ir_text(_atomic())
    check(text, r'"tile.load"', r"arith.constant dense<0> : tensor<i64>", r'"tile.broadcast".* -> tensor<128xi64>',
          r"arith.extsi .* : tensor<128xi32> to tensor<128xi64>", r"arith.addi .* : tensor<128xi64>",
          r'"tile.atomic_rmw"\(%arg0, .*\) \{kind = "add"\} : \(!tile.ptr<i32>, tensor<128xi64>, tensor<128xi32>, '
          r'tensor<128xi1>\) -> tensor<128xi32>')


def test_pointer_offsets_by_a_scalar_and_reshape():
    src = kernel("let p = pointer_to_tile(counts).broadcast(const_shape![4, 32]).offset(7i64).reshape("
                 "const_shape![128]);\nlet m = constant(true, const_shape![128]);\n"
                 "let (o, t) = atomic_rmw_tko(p, constant(2i32, const_shape![128]), atomic::Max, ordering::Weak, "
                 "scope::TileBlock, m, new_token_unordered());", params=PARAMS, unsafe=True)
    check(ir_text(src), r'"tile.splat".* -> tensor<4x32xi64>', r'"tile.reshape".* -> tensor<128xi64>',
          r'kind = "max"')


def _column(src: str, text: str) -> int:
    """The column of `text` on the atomic's line (line 9)."""
    return src.splitlines()[8].index(text) + 1


def test_stronger_orderings_and_the_system_scope_are_refused():
    src = _atomic(ordering="ordering::AcqRel")
    reject(src, 9, _column(src, "ordering::AcqRel"), "`ordering::AcqRel` is not supported")
    src = _atomic(scope="scope::System")
    reject(src, 9, _column(src, "scope::System"), "`scope::System` is not supported")


def test_values_and_mask_must_match_the_pointer_tile():
    src = _atomic(values="constant(1.0f32, const_shape![128])")
    reject(src, 9, _column(src, "constant(1.0f32"), "the values of an atomic through")
    src = _atomic(mask="v")
    reject(src, 9, _column(src, "v, new_token"), "the mask is a `Tile<bool, {[128]}>`")


def test_pointer_tiles_need_a_raw_pointer():
    src = kernel("let p = pointer_to_tile(x);", params="z: &mut Tensor<f32, {[128]}>, x: &Tensor<f32, {[-1]}>")
    reject(src, 6, 25, "`pointer_to_tile` takes a `*mut T` parameter")
