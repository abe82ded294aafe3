"""`cuda_tile_print!` in tile kernels: one `tile.print` of the widened scalars, printed once per tile block
by the emulator (and by thread 0 on the GPU); format-string and argument errors are located. The body of a
`kernel(...)` source starts on line 6."""

from __future__ import annotations

import oxide
from tests.unit.frontends.tile.helpers import check, ir_text, kernel, reject

PARAMS = "x: f32, k: u8, flag: bool"


def test_print_widens_its_arguments_as_c_varargs():
    text = ir_text(kernel('let ids = get_tile_block_id();\n'
                          'cuda_tile_print!("tile {} x={:.2} k={} flag={} n={}\\n", ids.0, x, k, flag, 7i64);',
                          params=PARAMS))
    check(text, r"arith.extf %arg0 : f32 to f64", r"arith.extui %arg1 : i8 to i32", r"arith.extui %arg2 : i1 to i32",
          r'"tile.print"\(.*\) \{format = "tile %d x=%\.2f k=%u flag=%u n=%lld\\0A", '
          r'operandSegmentSizes = array<i32: 3, 1, 1>, order = "idiil"\}')


def test_print_on_the_emulator_prints_one_line_per_tile_block(tmp_path, capfd):
    src = tmp_path / "hello.rs"
    src.write_text(kernel('let ids: (i32, i32, i32) = get_tile_block_id();\n'
                          'let n: (i32, i32, i32) = get_num_tile_blocks();\n'
                          'cuda_tile_print!("Hello from <{}, {}> of {}: x={:.1} k={:#x}\\n", ids.0, ids.1, n.0, x, k);',
                          params="x: f32, k: u32", entry="#[cutile::entry(print_ir = true)]"))
    mod = oxide.load(src, target="cpu")
    mod.k[(2, 2)](2.5, 255)
    lines = capfd.readouterr().out.splitlines()
    assert sorted(lines) == sorted(f"Hello from <{i}, {j}> of 2: x=2.5 k=0xff" for i in range(2) for j in range(2))


def test_print_format_errors_are_located_at_the_string():
    reject(kernel('cuda_tile_print!("{} {}\\n", x);', params=PARAMS), 6, 18,
           "invalid format string: '{} {}\\n' has more placeholders than the 1 argument(s) given")
    reject(kernel('cuda_tile_print!("{:b}", k);', params=PARAMS), 6, 18,
           "printf has no binary conversion")
    reject(kernel('cuda_tile_print!("{name}", x);', params=PARAMS), 6, 18,
           "named and positional arguments are not supported")


def test_print_needs_a_literal_format_and_scalar_arguments():
    reject(kernel("cuda_tile_print!(x);", params=PARAMS), 6, 1, "needs a string literal format as its first argument")
    reject(kernel('let t = constant(1.0f32, const_shape![4]);\ncuda_tile_print!("{}", t);', params=PARAMS), 7, 24,
           "`cuda_tile_print!` prints scalars, not `Tile<f32, {[4]}>`")
