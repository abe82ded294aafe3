"""What the tile frontend's control flow computes, run by scalar_interp.py: SSA variables through `if` and
loops, `break`/`continue` flags, value-producing `if`, literal typing. Each kernel stores one scalar,
splatted, into its output; the test compares it with what Rust computes."""

from __future__ import annotations

import pytest

from tests.unit.frontends.tile.helpers import build, kernel
from tests.unit.frontends.tile.scalar_interp import run

PARAMS = "z: &mut Tensor<f32, {[128]}>, n: i32"


def result(body: str, n: int = 10, block_id=(0, 0, 0)) -> float:
    """The value `body` stores with `z.store(broadcast_scalar(<expr> as f32, ..))` (its last line)."""
    module = build(kernel(body, params=PARAMS)).module
    [stored] = run(module, "k", [None, n], block_id)
    return stored


def store(expr: str) -> str:
    return f"z.store(broadcast_scalar(({expr}) as f32, const_shape![128]));"


@pytest.mark.parametrize("body, value, expected", [
    ("let mut s = 0;\nfor i in 0..n { s += i; }", "s", 45),
    ("let mut s = 0;\nfor i in (0..n).step_by(3) { s += i; }", "s", 0 + 3 + 6 + 9),
    ("let mut s = 0;\nfor i in 1..=4 { s = s * 10 + i; }", "s", 1234),
    ("let mut s = 0;\nfor i in 0..n { if i == 3 { continue; } if i == 7 { break; } s += i; }", "s",
     0 + 1 + 2 + 4 + 5 + 6),
    ("let mut s = 0;\nfor i in 0..n { if i % 2 == 0 { continue; } s += i; }", "s", 1 + 3 + 5 + 7 + 9),
    ("let mut s = 0;\nlet mut i = 0;\nwhile i < n { i += 1; if i > 5 { break; } s += i; }", "s", 15),
    ("let mut s = 0;\nlet mut i = 0;\nloop { i += 1; if i % 3 == 0 { continue; } s += i; if i >= 8 { break; } }", "s",
     1 + 2 + 4 + 5 + 7 + 8),
    ("let mut s = 0;\nfor i in 0..4 { for j in 0..i { if j == 2 { break; } s += 10 * i + j; } }", "s",
     10 + 20 + 21 + 30 + 31),
    ("let mut s = 0;\nfor i in 0..n { let t = if i < 3 { 1 } else if i < 6 { 10 } else { 100 }; s += t; }", "s",
     3 + 30 + 400),
    ("let mut a = 1;\nlet mut b = 0;\nfor _ in 0..n { let t = a + b; b = a; a = t; }", "a", 89),
    ("let mut s = 0.0;\nlet mut i = 0;\nwhile i < n { s = s + 0.5; i += 1; }", "s", 5.0),
    ("let mut x = 7;\nif n > 5 { x = 1; } else { x = 2; }", "x", 1),
    ("let mut x = 7;\nif n > 50 { x = 1; }", "x", 7),
    ("let (q, r) = (-7 / 2, -7 % 2);", "q * 10 + r", -31),
    ("let m = if n > 5 { (n, 1) } else { (0, 2) };", "m.0 * 10 + m.1", 101),
    ("let mut s = 0;\nlet mut i = 0;\nwhile i < n { let mut j = 0; while j < i { j += 1; if j % 2 == 0 { continue; } "
     "s += j; } i += 1; }", "s", sum(j for i in range(10) for j in range(1, i + 1) if j % 2)),
    ("let mut found = -1;\nfor i in 0..n { if i * i > 30 { found = i; break; } }", "found", 6),
    ("let mut s = 0;\nlet x = 5;\nfor i in 0..3 { let x = i * 2; s += x; }\ns += x;", "s", 0 + 2 + 4 + 5),
    ("let mut s = 1;\nfor i in 0..3 { let mut s = 100; s += i; }", "s", 1),
    ("let mut s = 0;\nlet mut k = n;\nwhile k > 0 && s < 25 { s += k; k -= 1; }", "s", 10 + 9 + 8),
    ("let mut s = 0u32;\nfor i in 0..5u32 { s += i; }", "s", 10),
])
def test_control_flow_computes_what_rust_does(body, value, expected):
    assert result(body + "\n" + store(value)) == expected


def test_block_ids_reach_the_result():
    body = "let (bx, by, _) = get_tile_block_id();\n" + store("bx * 100 + by")
    assert result(body, block_id=(3, 4, 0)) == 304


@pytest.mark.parametrize("expr, expected", [
    ("1e30f32 as i16", 2**15 - 1), ("-1e30f32 as i16", -2**15), ("f32::NAN as i32", 0), ("-3.7f32 as u8", 0),
    ("300.5f64 as u8", 255), ("-3.7f32 as i32", -3),
])
def test_float_to_int_casts_of_constants_saturate(expr, expected):
    assert result(store(expr)) == expected
