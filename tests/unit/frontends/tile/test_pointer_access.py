"""`load_ptr_tko` / `store_ptr_tko` in `unsafe fn` tile kernels: the IR they give (optional mask and padding),
their rejections, and a run on the emulator against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from tests.unit.frontends.tile.helpers import check, ir_text, kernel, reject

PARAMS = "out: *mut f32, src: *mut f32, n: i32"
PTRS = ("let offs = iota::<i32>(const_shape![128]);\n"
        "let inside = lt_tile(offs, broadcast_scalar(n, const_shape![128]));\n"
        "let p = pointer_to_tile(src).reshape(const_shape![1]).broadcast(const_shape![128]).offset_tile(offs);\n"
        "let q = pointer_to_tile(out).broadcast(const_shape![128]).offset_tile(offs);\n")


def _access(load: str = "ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(0.0f32), None, Latency::<0>",
            store: str = "ordering::Weak, None::<scope::TileBlock>, Some(inside), None, Latency::<0>",
            values: str = "t") -> str:
    return kernel(PTRS + f"let r: (Tile<f32, {{[128]}}>, Token) = load_ptr_tko(p, {load});\nlet t = r.0;\n"
                         f"let _tok: Token = store_ptr_tko(q, {values}, {store});", params=PARAMS, unsafe=True)


def test_gather_and_scatter_through_pointer_tiles():
    check(ir_text(_access()), r'"tile.load_ptr"\(%arg1, .*\) : \(!tile.ptr<f32>, tensor<128xi64>, tensor<128xi1>, '
                              r'f32\) -> tensor<128xf32>',
          r'"tile.store_ptr"\(%arg0, .*\) : \(!tile.ptr<f32>, tensor<128xi64>, tensor<128xf32>, tensor<128xi1>\)')


def test_no_mask_means_every_element_and_no_padding_zero():
    text = ir_text(_access(load="ordering::Relaxed, Some(scope::Device), None, None, None, Latency::<2>"))
    check(text, r"arith.constant dense<true> : tensor<128xi1>", r"arith.constant 0.000000e\+00 : f32",
          r'"tile.load_ptr"')


def _column(src: str, line: int, text: str) -> int:
    return src.splitlines()[line - 1].index(text) + 1


def test_acquire_orderings_are_refused():
    src = _access(load="ordering::Acquire, None, None, None, None, Latency::<0>")
    reject(src, 10, _column(src, 10, "ordering::Acquire"), "the ordering is `ordering::Weak` or `ordering::Relaxed`")


def test_optional_arguments_are_some_or_none():
    src = _access(load="ordering::Weak, None, inside, None, None, Latency::<0>")
    reject(src, 10, _column(src, 10, "inside, None"), "argument 4 is the mask: `Some(..)` or `None`")


def test_stored_values_must_match_the_pointer_tile():
    src = _access(values="offs")
    reject(src, 12, _column(src, 12, "offs,"), "the values stored through `PointerTile<*mut f32, {[128]}>`")


def test_padding_must_have_the_element_type():
    src = _access(load="ordering::Weak, None, None, Some(1i32), None, Latency::<0>")
    reject(src, 10, _column(src, 10, "Some(1i32)"), "mismatched types: the padding is `i32`, expected `f32`")


@pytest.mark.parametrize("n", [1, 100, 128])
def test_masked_gather_scatter_on_the_emulator(tmp_path, n):
    src = tmp_path / "scale.rs"
    src.write_text(kernel(PTRS + "let r = load_ptr_tko(p, ordering::Weak, None::<scope::TileBlock>, Some(inside), "
                                 "Some(-1.0f32), None, Latency::<0>);\n"
                                 "let all = load_ptr_tko(p, ordering::Weak, None, None, None, None, Latency::<0>);\n"
                                 "store_ptr_tko(q, r.0 + all.0, ordering::Weak, None, Some(inside), None, "
                                 "Latency::<0>);", params=PARAMS, unsafe=True))
    module = oxide.load(src, target="cpu")
    x = np.arange(128, dtype=np.float32)
    out = np.full(128, 7.0, np.float32)
    module.k[1](out, x, n)
    np.testing.assert_array_equal(out[:n], 2 * x[:n])
    np.testing.assert_array_equal(out[n:], 7.0)
