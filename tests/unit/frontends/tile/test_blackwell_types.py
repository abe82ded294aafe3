"""Blackwell-only element types (the mxfp8 / nvfp4 block scales and fp4 data) are a located error naming the
chip they need, wherever a type is written; the Target is what knows which chip first has them."""

from __future__ import annotations

import pytest

from oxide.target import Target
from tests.unit.frontends.tile.helpers import kernel, reject


@pytest.mark.parametrize("elem", ["f8e8m0fnu", "f4e2m1fn", "f4e2m1fnx2"])
def test_blackwell_element_types_need_sm_100(elem):
    src = kernel("", params=f"z: &mut Tensor<f32, {{[128]}}>, s: &Tensor<{elem}, {{[-1]}}>")
    column = src.splitlines()[4].index(elem) + 1
    reject(src, 5, column, f"`{elem}` needs sm_100 (Blackwell); this build targets sm_90")


def test_in_a_let_annotation_too():
    src = kernel("let t: Tile<f8e8m0fnu, {[128]}> = constant(0.0f32, const_shape![128]);")
    reject(src, 6, 13, "`f8e8m0fnu` needs sm_100 (Blackwell)")


def test_the_target_knows_which_chip_has_them():
    assert Target("sm_90").element_type_missing("f8e8m0fnu") == 100
    assert Target("sm_100").element_type_missing("f4e2m1fnx2") is None
    assert Target("sm_80").element_type_missing("f32") is None
