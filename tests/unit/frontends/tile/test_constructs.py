"""Per-construct tests of the tile frontend: each compiles a small cutile-rs kernel, verifies the tile IR
(upstream verifier and oxide-verify) and checks what was emitted."""

from __future__ import annotations

from tests.unit.frontends.tile.helpers import build, check, check_not, ir_text, kernel

ROW = "z: &mut Tensor<f32, {[4, 128]}>, x: &Tensor<f32, {[-1, -1]}>"


# Entries and parameters ---------------------------------------------------------------------------------
def test_vecadd_loads_adds_and_stores_own_tile():
    text = ir_text(kernel("let a = load_tile_like_1d(x, z);\nlet b = load_tile_like_1d(x, z);\nz.store(a + b);"))
    check(text, r"gpu.func @k\(%arg0: !tile.view_mut<f32, array<i64: 128>>, %arg1: !tile.view<f32, array<i64: -1>>\)"
                r" kernel attributes \{tile.warps = 4 : i32\}",
          r'"tile.make_partition"\(%arg1\)', r'"tile.block_id"\(\) \{axis = "x"\}',
          r'"tile.load".*-> tensor<128xf32>', r"arith.addf .* : tensor<128xf32>", r'"tile.store_own"\(%arg0, ')


def test_kernel_info_lists_rust_and_tile_types():
    info = build(kernel("", params="z: &mut Tensor<f32, {[128]}>, x: &Tensor<bf16, {[-1, 64]}>, a: f32, n: u32"))
    [k] = info.kernels
    assert (k.name, k.entry) == ("k", "k")
    assert [(p.name, p.rust_type, p.mlir_types) for p in k.params] == [
        ("z", "&mut Tensor<f32, {[128]}>", ["!tile.view_mut<f32, array<i64: 128>>"]),
        ("x", "&Tensor<bf16, {[-1, 64]}>", ["!tile.view<bf16, array<i64: -1, 64>>"]),
        ("a", "f32", ["f32"]), ("n", "u32", ["i32"])]


def test_entry_forms_and_warps_hint():
    assert "tile.warps = 4" in ir_text(kernel("", entry="#[cutile::entry()]"))
    hinted = kernel("", entry="#[cutile::entry(print_ir = true, optimization_hints = (sm_120 = (occupancy = 2), "
                              "sm_90 = (num_worker_warps_per_cta = 8, occupancy = 1)))]")
    assert "tile.warps = 8 : i32" in ir_text(hinted)


def test_unchecked_accesses_in_unsafe_fn_and_raw_pointer():
    text = ir_text(kernel("", params="z: &mut Tensor<f32, {[128]}>, p: *mut f32",
                          entry="#[cutile::entry(unchecked_accesses)]", unsafe=True))
    check(text, r"%arg1: !tile.ptr<f32>")


def test_several_entries_per_module_and_pub_mod():
    src = ("#[cutile::module]\npub mod m {\n use cutile::core::*;\n #[cutile::entry]\n"
           " pub fn a(z: &mut Tensor<f32, {[64]}>) "
           "{ z.store(constant(1.0f32, const_shape![64])); }\n #[cutile::entry]\n fn b(z: &mut Tensor<i32, {[32]}>) "
           "{ z.store(iota(const_shape![32])); }\n}\n")
    assert [k.entry for k in build(src).kernels] == ["a", "b"]


def test_generic_entry_instances_and_skipped():
    src = kernel("let t: Tile<E, {[BM, BN]}> = load_tile_like_2d(x, z);\nz.store(t);",
                 params="z: &mut Tensor<E, {[BM, BN]}>, x: &Tensor<E, {[-1, -1]}>",
                 generics="<E: ElementType, const BM: i32, const BN: i32>")
    result = build(src, {"k": [["f32", "16", "32"], ["bf16", "64", "64"]]})
    assert [k.entry for k in result.kernels] == ["k_f32_16_32", "k_bf16_64_64"]
    text = str(result.module)
    check(text, r"@k_f32_16_32\(%arg0: !tile.view_mut<f32, array<i64: 16, 32>>", r"@k_bf16_64_64\(%arg0: "
                r"!tile.view_mut<bf16, array<i64: 64, 64>>")
    assert build(src).skipped_generic == ["k"]


def test_shape_generic_array_instance():
    src = kernel("z.store(load_tile_like_2d(x, z));", params="z: &mut Tensor<f32, S>, x: &Tensor<f32, {[-1, -1]}>",
                 generics="<const S: [i32; 2]>")
    result = build(src, {"k": [["[64, 32]"]]})
    assert result.kernels[0].entry == "k_64x32"
    assert "!tile.view_mut<f32, array<i64: 64, 32>>" in str(result.module)


# Statements, variables, control flow --------------------------------------------------------------------
def test_let_annotation_shadowing_and_mutation_in_if():
    text = ir_text(kernel("let t: Tile<f32, {[128]}> = load_tile_like_1d(x, z);\nlet t = exp(t);\n"
                          "let mut u = t;\nlet (bx, _, _) = get_tile_block_id();\n"
                          "if bx > 2 { u = u * t; }\nz.store(u);"))
    check(text, r"math.exp", r"arith.cmpi sgt", r"scf.if .* -> \(tensor<128xf32>\)", r"arith.mulf",
          r"scf.yield", r"else", r"scf.yield", r'"tile.store_own"')


def test_value_producing_else_if_chain():
    text = ir_text(kernel("let pid = get_tile_block_id();\nlet s = if pid.0 == 0 { 1.0f32 } else if pid.0 == 1 "
                          "{ 2.0 } else { 3.0 };\nz.store(broadcast_scalar(s, const_shape![128]));"))
    check(text, r"scf.if .* -> \(f32\)", r"scf.if .* -> \(f32\)", r'"tile.splat"')


def test_for_loop_carries_tile_accumulator():
    text = ir_text(kernel("let mut acc = constant(0.0f32, const_shape![128]);\n"
                          "let p = x.partition(const_shape![128]);\n"
                          "for i in 0..num_tiles(&p, 0) { acc = acc + p.load([i]); }\nz.store(acc);"))
    check(text, r'"tile.num_tiles"', r"scf.for %\w+ = %\w+ to %\w+ step %\w+ iter_args\(%\w+ = %\w+\) -> "
                r"\(tensor<128xf32>\)\s+: i32", r'"tile.load"', r"arith.addf", r"scf.yield")


def test_step_by_and_inclusive_range():
    text = ir_text(kernel("let mut n = 0i32;\nfor i in (0..10).step_by(3) { n += i; }\nfor j in 1..=4 { n = n * j; }\n"
                          "z.store(broadcast_scalar(n as f32, const_shape![128]));"))
    check(text, r"%c3_i32 = arith.constant 3 : i32", r"scf.for .* step %c3_i32", r"arith.addi", r"scf.for",
          r"arith.muli")


def test_while_loop_is_scf_while():
    text = ir_text(kernel("let mut i = 0;\nlet mut s = 0.0f32;\nwhile i < 8 { s = s + 1.0; i += 1; }\n"
                          "z.store(broadcast_scalar(s, const_shape![128]));"))
    check(text, r"scf.while \(.*\) : \(f32, i32\) -> \(f32, i32\)", r"arith.cmpi slt", r"scf.condition",
          r"do", r"arith.addf", r"arith.addi", r"scf.yield")


def test_loop_with_break_uses_a_flag():
    text = ir_text(kernel("let mut i = 0i32;\nloop { i += 1; if i >= 5 { break; } }\n"
                          "z.store(broadcast_scalar(i as f32, const_shape![128]));"))
    check(text, r"scf.while \(.*\) : \(i1, i32\)", r"scf.condition", r"arith.addi", r"arith.cmpi sge",
          r"scf.if .* -> \(i1\)", r"scf.yield %true")


def test_for_with_break_and_continue():
    text = ir_text(kernel("let mut s = 0i32;\nfor i in 0..10 {\nif i == 3 { continue; }\nif i == 7 { break; }\n"
                          "s += i;\n}\nz.store(broadcast_scalar(s, const_shape![128]).convert_tile::<f32>());"))
    # A `for` that may break is a while over (counter, break flag, s); statements after a jump are guarded.
    check(text, r"scf.while \(.*\) : \(i32, i1, i32\)", r"arith.cmpi slt", r"scf.condition", r"scf.if",
          r"scf.if", r"arith.addi", r"arith.sitofp")


def test_continue_only_for_stays_scf_for():
    text = ir_text(kernel("let mut s = 0i32;\nfor i in 0..10 { if i % 2 == 0 { continue; } s += i; }\n"
                          "z.store(broadcast_scalar(s as f32, const_shape![128]));"))
    check(text, r"scf.for", r"arith.remsi", r"scf.if .* -> \(i1\)", r"scf.if .* -> \(i32\)", r"arith.addi")
    check_not(text, r"scf.while")


def test_const_generic_branch_is_folded():
    src = kernel("let t = load_tile_like_1d(x, z);\nif CAUSAL == 1i32 { z.store(exp(t)); } else { z.store(t); }",
                 generics="<const CAUSAL: i32>")
    on = str(build(src, {"k": [["1"]]}).module)
    off = str(build(src, {"k": [["0"]]}).module)
    assert "math.exp" in on and "scf.if" not in on
    assert "math.exp" not in off and "scf.if" not in off


def test_const_items_and_literal_suffixes():
    text = ir_text(kernel("let a = SCALE * 2.0;\nlet b = 7u8 as f32;\nlet c = 3i64 as i32;\nlet d = -1.5f64 as i32;\n"
                          "let e = (a + b) * (c + d) as f32;\nz.store(broadcast_scalar(e, const_shape![N]));",
                          extra="    const SCALE: f32 = 0.5;\n    const N: i32 = 128;"))
    # Constants fold: the stored splat is of 8 * 2 = 16.
    check(text, r"arith.constant dense<1.600000e\+01> : tensor<128xf32>", r'"tile.store_own"')


def test_casts_emit_conversions():
    text = ir_text(kernel("let (bx, _, _) = get_tile_block_id();\nlet a = bx as i64;\nlet b = bx as u8;\n"
                          "let c = bx as f32;\nlet d = c as i32;\nlet e = (b as u32) as f64;\nlet f = e as f32;\n"
                          "z.store(broadcast_scalar(f + c + (a as f32) + (d as f32), const_shape![128]));"))
    check(text, r"arith.extsi .* : i32 to i64", r"arith.trunci .* : i32 to i8", r"arith.sitofp .* : i32 to f32",
          r"arith.fptosi .* : f32 to i32", r"arith.extui .* : i8 to i32", r"arith.uitofp .* : i32 to f64",
          r"arith.truncf .* : f64 to f32")


def test_unsuffixed_literal_takes_its_later_type():
    # `0.0` would default to f64; its use with an f32 tile element retypes the `let` (as rustc infers).
    text = ir_text(kernel("let t = load_tile_like_1d(x, z);\nlet mut s = 0.0;\nfor i in 0..4 { s = s + "
                          "tile_to_scalar(reduce_sum(t, 0)); }\nz.store(broadcast_scalar(s, const_shape![128]));"))
    check(text, r"scf.for .* -> \(f32\)")
    check_not(text, r"f64")


def test_helper_functions_are_inlined_with_inferred_generics():
    extra = ("    fn scale<E: ElementType, const N: i32>(t: Tile<E, {[N]}>, s: E) -> Tile<E, {[N]}> {\n"
             "        t * broadcast_scalar(s, const_shape![N])\n    }\n"
             "    fn twice(t: Tile<f32, {[128]}>) -> Tile<f32, {[128]}> { scale(t, 2.0) }")
    text = ir_text(kernel("z.store(twice(load_tile_like_1d(x, z)));", extra=extra))
    check(text, r'"tile.load"', r"arith.constant dense<2.000000e\+00> : tensor<128xf32>", r"arith.mulf",
          r'"tile.store_own"')
    check_not(text, r"func.call", r"func.func")


# Tile operations ----------------------------------------------------------------------------------------
def test_partition_load_and_partition_mut_store():
    text = ir_text(kernel("let p = x.partition(const_shape![2, 64]);\nlet pm = z.partition_mut(const_shape![2, 64]);\n"
                          "let (bx, by, _) = get_tile_block_id();\nfor j in 0..2i32 {\nfor i in 0..2i32 {\n"
                          "let t = p.load([bx * 2 + i, by * 2 + j]);\npm.store(t, [i, j]);\n}\n}",
                          params=ROW))
    check(text, r'"tile.make_partition"\(%arg1\) .* -> !tile.partition<f32, array<i64: 2, 64>>',
          r'"tile.make_partition_mut"\(%arg0\) .* -> !tile.partition_mut<f32, array<i64: 2, 64>>',
          r'"tile.load"', r'"tile.store"\(%\d+, %\d+, %\w+, %\w+\)')


def test_own_tile_load_and_shape_queries():
    text = ir_text(kernel("let t = z.load();\nlet u = load_tile_mut(z);\nlet n = x.shape()[1];\n"
                          "let rows = z.shape()[0];\nlet s = broadcast_scalar((n + rows) as f32, z.shape());\n"
                          "z.store(t + u + s);", params=ROW))
    check(text, r'"tile.load_own"\(%arg0\)', r'"tile.load_own"\(%arg0\)', r'"tile.dim"\(%arg1\) \{axis = 1 : i64\}',
          r"%c4_i32 = arith.constant 4 : i32", r"arith.addi", r'"tile.splat"')


def test_load_tile_with_shape_and_index():
    text = ir_text(kernel("let t = x.load_tile(const_shape![4, 128], [1i32, 0i32]);\nz.store(t);", params=ROW))
    check(text, r"%c1_i32", r'"tile.make_partition"', r'"tile.load"\(%\d+, %c1_i32, %c0_i32\)')


def test_shape_ops():
    text = ir_text(kernel("let t: Tile<f32, {[4, 128]}> = load_tile_like_2d(x, z);\n"
                          "let a = t.transpose();\nlet b = permute(a, const_array![1, 0]);\n"
                          "let c = b.reshape(const_shape![2, 256]).reshape(const_shape![4, 128]);\n"
                          "let h: Tile<f32, {[2, 128]}> = extract(c, [1, 0]);\nlet d = cat(h, h, 0);\n"
                          "let r = reduce_sum(d, 0).reshape(const_shape![1, 128]).broadcast(const_shape![4, 128]);\n"
                          "z.store(r);", params=ROW))
    check(text, r'"tile.permute"\(%\d+\) \{perm = array<i64: 1, 0>\} : \(tensor<4x128xf32>\) -> tensor<128x4xf32>',
          r'"tile.permute"', r'"tile.reshape".* -> tensor<2x256xf32>', r'"tile.reshape".* -> tensor<4x128xf32>',
          r'"tile.extract"\(%\d+, %c1_i32, %c0_i32\) : .* -> tensor<2x128xf32>',
          r'"tile.cat"\(%\d+, %\d+\) \{dim = 0 : i64\}', r'"tile.reduce"', r'"tile.broadcast"')


def test_creation_ops():
    text = ir_text(kernel("let a = constant(1.5f32, const_shape![128]);\nlet i = iota::<i32>(const_shape![128]);\n"
                          "let f = convert_tile::<f32>(i);\nlet s = scalar_to_tile(2.0f32);\n"
                          "let v = tile_to_scalar(s);\n"
                          "let b = v.broadcast(const_shape![128]);\nlet c: Tile<f32, {[128]}> = constant(0.0, "
                          "const_shape![128]);\nz.store(a + f + b + c);"))
    check(text, r"arith.constant dense<1.500000e\+00> : tensor<128xf32>", r'"tile.iota"\(\) : \(\) -> tensor<128xi32>',
          r"arith.sitofp .* : tensor<128xi32> to tensor<128xf32>", r"arith.constant dense<2.000000e\+00> : tensor<f32>",
          r'"tile.to_scalar"\(%\w+\) : \(tensor<f32>\) -> f32', r'"tile.splat"')


def test_elementwise_function_forms_and_markers():
    text = ir_text(kernel("let t = load_tile_like_1d(x, z);\n"
                          "let a = addf(t, t, rounding::NearestEven, ftz::Disabled);\n"
                          "let b = maxf(a, t, nan::Disabled);\nlet c = max_tile(b, min_tile(a, t));\n"
                          "let d = fma(c, t, a);\nlet e = pow(d, t);\nlet f = true_div(e, sqrt(t));\n"
                          "let g = select(gt_tile(f, t), f, negf(t));\nz.store(absf(g) + exp2(t, ftz::Enabled) + "
                          "tanh(t) + rsqrt(t) - log(t) * floor(t));"))
    check(text, r"arith.addf", r"arith.maximumf", r"arith.minimumf", r"arith.maximumf", r"math.fma", r"math.powf",
          r"math.sqrt", r"arith.divf", r"arith.cmpf ogt", r"arith.subf", r"arith.select", r"math.absf", r"math.exp2",
          r"math.tanh", r"math.rsqrt", r"math.log", r"math.floor")


def test_integer_tiles_use_signedness():
    text = ir_text(kernel("let a = iota::<u32>(const_shape![128]);\nlet b = iota::<i32>(const_shape![128]);\n"
                          "let c = a / a % a >> a;\nlet d = b / b % b >> b;\nlet e = max_tile(a, a);\n"
                          "let m = reduce_max(e, 0);\nlet f = (c & e) | (c ^ e) << e;\n"
                          "z.store(convert_tile::<f32>(f) + convert_tile::<f32>(d) + broadcast_scalar("
                          "tile_to_scalar(m.reshape(const_shape![1])) as f32, const_shape![128]));"))
    check(text, r"arith.divui", r"arith.remui", r"arith.shrui", r"arith.divsi", r"arith.remsi", r"arith.shrsi",
          r"arith.maxui", r'"tile.reduce".*kind = "max", unsigned = true', r"arith.andi", r"arith.xori", r"arith.shli",
          r"arith.ori", r"arith.uitofp", r"arith.sitofp")


def test_reductions_scan_and_comparisons():
    text = ir_text(kernel("let t: Tile<f32, {[4, 128]}> = load_tile_like_2d(x, z);\n"
                          "let m = reduce_max(t, 1);\nlet p = reduce_prod(t, 0);\nlet n = reduce_min(t, 1);\n"
                          "let s = scan_sum(t, 1, reverse::Reverse, 0.0f32);\n"
                          "let q = scan_sum(t, 0, reverse::Forward, 0.0f32);\n"
                          "let k = eq_tile(m, n);\nz.store(select(ne_tile(s, q), s, q));", params=ROW))
    check(text, r'"tile.reduce"\(%\d+\) \{dim = 1 : i64, kind = "max", unsigned = false\} : \(tensor<4x128xf32>\) -> '
                r'tensor<4xf32>', r'kind = "prod"', r'kind = "min"',
          r'"tile.scan"\(%\d+\) \{dim = 1 : i64, kind = "sum", reverse = true, unsigned = false\}',
          r'"tile.scan"\(%\d+\) \{dim = 0 : i64, kind = "sum", reverse = false', r"arith.cmpf oeq, .* : tensor<4xf32>",
          r"arith.cmpf une")


def test_mma_bf16_into_f32():
    text = ir_text(kernel("let a = x.load_tile(const_shape![64, 32], [0i32, 0i32]);\n"
                          "let b = y.load_tile(const_shape![32, 64], [0i32, 0i32]);\n"
                          "let acc = constant(0.0f32, const_shape![64, 64]);\nz.store(mma(a, b, acc));",
                          params="z: &mut Tensor<f32, {[64, 64]}>, x: &Tensor<bf16, {[-1, -1]}>, "
                                 "y: &Tensor<bf16, {[-1, -1]}>"))
    check(text, r'"tile.mma"\(%\d+, %\d+, %cst\w*\) : \(tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>\) '
                r'-> tensor<64x64xf32>')


def test_conversions_and_bitcast():
    text = ir_text(kernel("let t = load_tile_like_1d(x, z);\nlet h = ftof::<bf16>(t);\nlet g: Tile<f16, {[128]}> = "
                          "convert_tile(h);\nlet i = ftoi::<i32>(t);\nlet w = exti::<i64>(i);\n"
                          "let n = trunci::<i16>(w);\n"
                          "let u = bitcast::<u32>(t);\nlet back = bitcast::<f32>(u);\nlet k = itof::<f32>(n);\n"
                          "z.store(back + k + convert_tile::<f32>(g));"))
    check(text, r"arith.truncf .* tensor<128xf32> to tensor<128xbf16>", r"arith.extf .* to tensor<128xf32>",
          r"arith.truncf .* to tensor<128xf16>", r"arith.fptosi", r"arith.extsi .* to tensor<128xi64>",
          r"arith.trunci .* to tensor<128xi16>", r"arith.bitcast .* tensor<128xf32> to tensor<128xi32>",
          r"arith.bitcast .* tensor<128xi32> to tensor<128xf32>", r"arith.sitofp .* tensor<128xi16>")


def test_method_form_of_functions():
    text = ir_text(kernel("let t = load_tile_like_1d(x, z);\nz.store(t.exp().sqrt());"))
    check(text, r"math.exp", r"math.sqrt")


def test_scalar_constants_of_types():
    text = ir_text(kernel("z.store(constant(f32::NEG_INFINITY, const_shape![128]) + constant(f32::MAX, "
                          "const_shape![128]) + convert_tile::<f32>(constant(i32::MIN, const_shape![128])));"))
    check(text, r"dense<0xFF800000>", r"dense<3.40282347E\+38>", r"dense<-2147483648> : tensor<128xi32>")


def test_ops_carry_source_locations():
    src = kernel("let a = load_tile_like_1d(x, z);\nlet b = exp(a);\nz.store(b);")
    text = ir_text(src, debug=True)
    # line 6 = `let a = ...`, line 7 = `let b = exp(a);` (the call starts at column 9), line 8 = the store.
    check(text, r'"tile.load".*loc\(#loc\d+\)|"tile.load"', r"math.exp")
    assert 'loc("k.rs":7:9)' in text
    assert 'loc("k.rs":8:1)' in text


def test_literal_typed_by_the_store_it_reaches():
    # `s` would default to f64; storing its splat into an f32 output makes it f32 (as rustc infers).
    text = ir_text(kernel("let mut s = 0.0;\nlet mut i = 0;\nloop { s += 1.5; i += 1; if i > 3 { break; } }\n"
                          "z.store(broadcast_scalar(s, const_shape![128]));"))
    check(text, r"scf.while .* : \(i1, f32, i32\)", r'"tile.splat"\(%\w+#1\) : \(f32\) -> tensor<128xf32>')
    check_not(text, r"f64")


def test_labelled_break_of_the_innermost_loop():
    text = ir_text(kernel("let mut c = 0i32;\n'outer: for i in 0..3 { c += i; if c > 1 { break 'outer; } }\n"
                          "z.store(broadcast_scalar(c as f32, const_shape![128]));"))
    check(text, r"scf.while", r"scf.condition", r"scf.if")


def test_reduce_and_scan_with_closures():
    text = ir_text(kernel("let t: Tile<f32, {[4, 128]}> = load_tile_like_2d(x, z);\n"
                          "let a = reduce(t, 1, 0.0f32, |x, y| x + y);\nlet b = reduce(t, 1, f32::NEG_INFINITY, "
                          "|x, y| x.max(y));\nlet c = reduce(t, 0, 1.0f32, |p, q| { p * q });\n"
                          "let d = reduce(t, 1, f32::INFINITY, |x, y| min(x, y));\n"
                          "let s = scan(t, 1, reverse::Forward, 0.0f32, |x, y| x + y);\nz.store(s);", params=ROW))
    check(text, r'kind = "sum"', r'kind = "max"', r'"tile.reduce"\(%\d+\) \{dim = 0 : i64, kind = "prod"',
          r'kind = "min"', r'"tile.scan"\(%\d+\) \{dim = 1 : i64, kind = "sum", reverse = false')


def test_load_pipelined_is_a_load():
    text = ir_text(kernel("let p = x.partition(const_shape![128]);\nz.store(p.load_pipelined::<2>([0i32]));"))
    check(text, r'"tile.make_partition"', r'"tile.load"', r'"tile.store_own"')


def test_unused_constants_and_block_ids_are_dropped():
    src = kernel("let (bx, _, _) = get_tile_block_id();\nlet p = x.partition(const_shape![128]);\n"
                 "if CAUSAL == 1i32 { z.store(p.load([bx])); } else { z.store(p.load([bx + 1])); }",
                 generics="<const CAUSAL: i32>")
    text = str(build(src, {"k": [["1"]]}).module)
    assert text.count('"tile.block_id"') == 1 and "arith.constant" not in text


def test_helpers_of_other_modules_by_path():
    src = ("#[cutile::module]\nmod util {\n    use cutile::core::*;\n"
           "    pub fn twice(t: Tile<f32, {[64]}>) -> Tile<f32, {[64]}> { t + t }\n}\n"
           "#[cutile::module]\nmod m {\n    use cutile::core::*;\n    #[cutile::entry]\n"
           "    fn k(z: &mut Tensor<f32, {[64]}>) {\n"
           "        z.store(super::util::twice(constant(1.0f32, const_shape![64])));\n    }\n}\n")
    check(str(build(src).module), r"arith.addf", r'"tile.store_own"')


def test_shape_from_a_const_item():
    src = kernel("z.store(constant(0.0f32, TILE));", params="z: &mut Tensor<f32, TILE>",
                 extra="    const TILE: [i32; 2] = [16, 32];")
    check(ir_text(src), r"%arg0: !tile.view_mut<f32, array<i64: 16, 32>>", r"dense<0.000000e\+00> : tensor<16x32xf32>")
