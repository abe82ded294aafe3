// GPU tests of the math and debug families (tests/gpu/test_math_debug.py, tests/gpu/test_zz_trap.py).
// Compiled into tests/fixtures/math_debug.ptx:
//   oxide-opt tests/gpu/kernels/math_debug.mlir --emit=ptx -o tests/fixtures/math_debug.ptx
// The switch cases of math_f32/math_f64 are in the order of FUNCTIONS in test_math_debug.py.
module attributes {gpu.container_module} {
  gpu.module @math_debug {
    // out[i * 42 + k] = function k of (xs[i], ys[i], es[i]); one thread per output element.
    gpu.func @math_f32(%xs: !simt.slice<f32>, %ys: !simt.slice<f32>, %es: !simt.slice<i32>,
                        %out: !simt.disjoint<f32, "1d">) kernel {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %ref = "simt.get_mut"(%out, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok {
        %flat = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %count = arith.constant 42 : index
        %i = arith.divui %flat, %count : index
        %k = arith.remui %flat, %count : index
        %x = "simt.load"(%xs, %i) : (!simt.slice<f32>, index) -> f32
        %y = "simt.load"(%ys, %i) : (!simt.slice<f32>, index) -> f32
        %e = "simt.load"(%es, %i) : (!simt.slice<i32>, index) -> i32
        %r = scf.index_switch %k -> f32
        case 0 {  // sqrt
          %v = "simt.libdevice"(%x) {fn = "sqrt"} : (f32) -> f32
          scf.yield %v : f32
        }
        case 1 {  // exp
          %v = math.exp %x : f32
          scf.yield %v : f32
        }
        case 2 {  // exp2
          %v = math.exp2 %x : f32
          scf.yield %v : f32
        }
        case 3 {  // ln
          %v = math.log %x : f32
          scf.yield %v : f32
        }
        case 4 {  // log2
          %v = math.log2 %x : f32
          scf.yield %v : f32
        }
        case 5 {  // log10
          %v = math.log10 %x : f32
          scf.yield %v : f32
        }
        case 6 {  // sin
          %v = math.sin %x : f32
          scf.yield %v : f32
        }
        case 7 {  // cos
          %v = math.cos %x : f32
          scf.yield %v : f32
        }
        case 8 {  // tan
          %v = math.tan %x : f32
          scf.yield %v : f32
        }
        case 9 {  // powf
          %v = math.powf %x, %y : f32
          scf.yield %v : f32
        }
        case 10 {  // powi
          %v = math.fpowi %x, %e : f32, i32
          scf.yield %v : f32
        }
        case 11 {  // mul_add
          %v = math.fma %x, %y, %x : f32
          scf.yield %v : f32
        }
        case 12 {  // floor
          %v = math.floor %x : f32
          scf.yield %v : f32
        }
        case 13 {  // ceil
          %v = math.ceil %x : f32
          scf.yield %v : f32
        }
        case 14 {  // round
          %v = math.round %x : f32
          scf.yield %v : f32
        }
        case 15 {  // round_ties_even
          %v = math.roundeven %x : f32
          scf.yield %v : f32
        }
        case 16 {  // trunc
          %v = "simt.libdevice"(%x) {fn = "trunc"} : (f32) -> f32
          scf.yield %v : f32
        }
        case 17 {  // abs
          %v = math.absf %x : f32
          scf.yield %v : f32
        }
        case 18 {  // copysign
          %v = math.copysign %x, %y : f32
          scf.yield %v : f32
        }
        case 19 {  // min
          %v = arith.minnumf %x, %y : f32
          scf.yield %v : f32
        }
        case 20 {  // max
          %v = arith.maxnumf %x, %y : f32
          scf.yield %v : f32
        }
        case 21 {  // minimum
          %v = arith.minimumf %x, %y : f32
          scf.yield %v : f32
        }
        case 22 {  // maximum
          %v = arith.maximumf %x, %y : f32
          scf.yield %v : f32
        }
        case 23 {  // asin
          %v = math.asin %x : f32
          scf.yield %v : f32
        }
        case 24 {  // acos
          %v = math.acos %x : f32
          scf.yield %v : f32
        }
        case 25 {  // atan
          %v = math.atan %x : f32
          scf.yield %v : f32
        }
        case 26 {  // atan2
          %v = math.atan2 %x, %y : f32
          scf.yield %v : f32
        }
        case 27 {  // sinh
          %v = math.sinh %x : f32
          scf.yield %v : f32
        }
        case 28 {  // cosh
          %v = math.cosh %x : f32
          scf.yield %v : f32
        }
        case 29 {  // tanh
          %v = math.tanh %x : f32
          scf.yield %v : f32
        }
        case 30 {  // asinh
          %v = math.asinh %x : f32
          scf.yield %v : f32
        }
        case 31 {  // acosh
          %v = math.acosh %x : f32
          scf.yield %v : f32
        }
        case 32 {  // atanh
          %v = math.atanh %x : f32
          scf.yield %v : f32
        }
        case 33 {  // cbrt
          %v = math.cbrt %x : f32
          scf.yield %v : f32
        }
        case 34 {  // exp_m1
          %v = math.expm1 %x : f32
          scf.yield %v : f32
        }
        case 35 {  // ln_1p
          %v = math.log1p %x : f32
          scf.yield %v : f32
        }
        case 36 {  // hypot
          %v = "simt.libdevice"(%x, %y) {fn = "hypot"} : (f32, f32) -> f32
          scf.yield %v : f32
        }
        case 37 {  // sin_cos.0
          %v, %unused = math.sincos %x : f32
          scf.yield %v : f32
        }
        case 38 {  // sin_cos.1
          %unused, %v = math.sincos %x : f32
          scf.yield %v : f32
        }
        case 39 {  // recip
          %one = arith.constant 1.0 : f32
          %v = arith.divf %one, %x : f32
          scf.yield %v : f32
        }
        case 40 {  // to_degrees
          %c = arith.constant 0x42652EE1 : f32
          %v = arith.mulf %x, %c : f32
          scf.yield %v : f32
        }
        case 41 {  // to_radians
          %c = arith.constant 0x3C8EFA35 : f32
          %v = arith.mulf %x, %c : f32
          scf.yield %v : f32
        }
        default {
          %nan = arith.constant 0x7FC00000 : f32
          scf.yield %nan : f32
        }
        "simt.ref_store"(%ref, %r) : (!simt.ref<f32>, f32) -> ()
      }
      gpu.return
    }

    // out[i * 42 + k] = function k of (xs[i], ys[i], es[i]); one thread per output element.
    gpu.func @math_f64(%xs: !simt.slice<f64>, %ys: !simt.slice<f64>, %es: !simt.slice<i32>,
                        %out: !simt.disjoint<f64, "1d">) kernel {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %ref = "simt.get_mut"(%out, %w) : (!simt.disjoint<f64, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f64>)
      scf.if %ok {
        %flat = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %count = arith.constant 42 : index
        %i = arith.divui %flat, %count : index
        %k = arith.remui %flat, %count : index
        %x = "simt.load"(%xs, %i) : (!simt.slice<f64>, index) -> f64
        %y = "simt.load"(%ys, %i) : (!simt.slice<f64>, index) -> f64
        %e = "simt.load"(%es, %i) : (!simt.slice<i32>, index) -> i32
        %r = scf.index_switch %k -> f64
        case 0 {  // sqrt
          %v = math.sqrt %x : f64
          scf.yield %v : f64
        }
        case 1 {  // exp
          %v = math.exp %x : f64
          scf.yield %v : f64
        }
        case 2 {  // exp2
          %v = math.exp2 %x : f64
          scf.yield %v : f64
        }
        case 3 {  // ln
          %v = math.log %x : f64
          scf.yield %v : f64
        }
        case 4 {  // log2
          %v = math.log2 %x : f64
          scf.yield %v : f64
        }
        case 5 {  // log10
          %v = math.log10 %x : f64
          scf.yield %v : f64
        }
        case 6 {  // sin
          %v = math.sin %x : f64
          scf.yield %v : f64
        }
        case 7 {  // cos
          %v = math.cos %x : f64
          scf.yield %v : f64
        }
        case 8 {  // tan
          %v = math.tan %x : f64
          scf.yield %v : f64
        }
        case 9 {  // powf
          %v = math.powf %x, %y : f64
          scf.yield %v : f64
        }
        case 10 {  // powi
          %v = math.fpowi %x, %e : f64, i32
          scf.yield %v : f64
        }
        case 11 {  // mul_add
          %v = math.fma %x, %y, %x : f64
          scf.yield %v : f64
        }
        case 12 {  // floor
          %v = math.floor %x : f64
          scf.yield %v : f64
        }
        case 13 {  // ceil
          %v = math.ceil %x : f64
          scf.yield %v : f64
        }
        case 14 {  // round
          %v = math.round %x : f64
          scf.yield %v : f64
        }
        case 15 {  // round_ties_even
          %v = math.roundeven %x : f64
          scf.yield %v : f64
        }
        case 16 {  // trunc
          %v = "simt.libdevice"(%x) {fn = "trunc"} : (f64) -> f64
          scf.yield %v : f64
        }
        case 17 {  // abs
          %v = math.absf %x : f64
          scf.yield %v : f64
        }
        case 18 {  // copysign
          %v = math.copysign %x, %y : f64
          scf.yield %v : f64
        }
        case 19 {  // min
          %v = arith.minnumf %x, %y : f64
          scf.yield %v : f64
        }
        case 20 {  // max
          %v = arith.maxnumf %x, %y : f64
          scf.yield %v : f64
        }
        case 21 {  // minimum
          %v = arith.minimumf %x, %y : f64
          scf.yield %v : f64
        }
        case 22 {  // maximum
          %v = arith.maximumf %x, %y : f64
          scf.yield %v : f64
        }
        case 23 {  // asin
          %v = math.asin %x : f64
          scf.yield %v : f64
        }
        case 24 {  // acos
          %v = math.acos %x : f64
          scf.yield %v : f64
        }
        case 25 {  // atan
          %v = math.atan %x : f64
          scf.yield %v : f64
        }
        case 26 {  // atan2
          %v = math.atan2 %x, %y : f64
          scf.yield %v : f64
        }
        case 27 {  // sinh
          %v = math.sinh %x : f64
          scf.yield %v : f64
        }
        case 28 {  // cosh
          %v = math.cosh %x : f64
          scf.yield %v : f64
        }
        case 29 {  // tanh
          %v = math.tanh %x : f64
          scf.yield %v : f64
        }
        case 30 {  // asinh
          %v = math.asinh %x : f64
          scf.yield %v : f64
        }
        case 31 {  // acosh
          %v = math.acosh %x : f64
          scf.yield %v : f64
        }
        case 32 {  // atanh
          %v = math.atanh %x : f64
          scf.yield %v : f64
        }
        case 33 {  // cbrt
          %v = math.cbrt %x : f64
          scf.yield %v : f64
        }
        case 34 {  // exp_m1
          %v = math.expm1 %x : f64
          scf.yield %v : f64
        }
        case 35 {  // ln_1p
          %v = math.log1p %x : f64
          scf.yield %v : f64
        }
        case 36 {  // hypot
          %v = "simt.libdevice"(%x, %y) {fn = "hypot"} : (f64, f64) -> f64
          scf.yield %v : f64
        }
        case 37 {  // sin_cos.0
          %v, %unused = math.sincos %x : f64
          scf.yield %v : f64
        }
        case 38 {  // sin_cos.1
          %unused, %v = math.sincos %x : f64
          scf.yield %v : f64
        }
        case 39 {  // recip
          %one = arith.constant 1.0 : f64
          %v = arith.divf %one, %x : f64
          scf.yield %v : f64
        }
        case 40 {  // to_degrees
          %c = arith.constant 0x404CA5DC1A63C1F8 : f64
          %v = arith.mulf %x, %c : f64
          scf.yield %v : f64
        }
        case 41 {  // to_radians
          %c = arith.constant 0x3F91DF46A2529D39 : f64
          %v = arith.mulf %x, %c : f64
          scf.yield %v : f64
        }
        default {
          %nan = arith.constant 0x7FF8000000000000 : f64
          scf.yield %nan : f64
        }
        "simt.ref_store"(%ref, %r) : (!simt.ref<f64>, f64) -> ()
      }
      gpu.return
    }

    // assert!(xs[i] > 0.0, "xs[i] must be positive"): the launch fails with CUDA_ERROR_ASSERT. The explicit
    // location keeps the file name __assertfail prints independent of the path the compiler was given.
    gpu.func @assert_positive(%xs: !simt.slice<f32>) kernel {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
      %x = "simt.load"(%xs, %i) : (!simt.slice<f32>, index) -> f32
      %zero = arith.constant 0.0 : f32
      %positive = arith.cmpf ogt, %x, %zero : f32
      "simt.assert"(%positive) {message = "xs[i] must be positive"} : (i1) -> () loc("math_debug.mlir":403:7)
      gpu.return
    }

    // Traps when flag != 0 (a launch with flag = 0 must succeed).
    gpu.func @trap_if(%flag: i32) kernel {
      %zero = arith.constant 0 : i32
      %set = arith.cmpi ne, %flag, %zero : i32
      scf.if %set {
        "simt.trap"() : () -> ()
      }
      gpu.return
    }

    // println!("x = {:.3}, n = {}, hex = {:#x}, pad = [{:>5}], small = {}, 100%", x, n, n, n, small): the format string is rust_format_to_c's translation
    // (tests/unit/dialects/test_printf_format.py checks it); the i8 is widened to i32 as printf_arg_type says.
    gpu.func @print_values(%x: f32, %n: i32, %small: i8) kernel {
      %wide = arith.extsi %small : i8 to i32
      gpu.printf "x = %.3f, n = %d, hex = 0x%x, pad = [%5d], small = %d, 100%%\0A", %x, %n, %n, %n, %wide : f32, i32, i32, i32, i32
      gpu.return
    }

    // Reads the clocks: out[0] = clock64, out[1] = globaltimer, out[2] = clock64 again.
    gpu.func @clocks(%out: !simt.slice_mut<i64>) kernel {
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %two = arith.constant 2 : index
      %c0 = "simt.special_reg"() {reg = "clock64"} : () -> i64
      %g = "simt.special_reg"() {reg = "globaltimer"} : () -> i64
      "simt.store"(%out, %zero, %c0) : (!simt.slice_mut<i64>, index, i64) -> ()
      "simt.store"(%out, %one, %g) : (!simt.slice_mut<i64>, index, i64) -> ()
      %c1 = "simt.special_reg"() {reg = "clock64"} : () -> i64
      "simt.store"(%out, %two, %c1) : (!simt.slice_mut<i64>, index, i64) -> ()
      gpu.return
    }
  }
}
