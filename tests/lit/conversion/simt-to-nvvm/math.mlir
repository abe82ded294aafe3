// Rust's f32/f64 methods reach PTX: upstream math/arith ops through convert-gpu-to-nvvm (libdevice or
// native instructions), simt.libdevice through a declared `__nv_*` call; libdevice is linked, so the PTX
// calls no `__nv_` function. docs/simt-math-debug.md maps each method to its op.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s --check-prefix=LINKED
// RUN: %oxide-opt %s --pass-pipeline="builtin.module(convert-simt-to-nvvm)" | FileCheck %s --check-prefix=IR
// RUN: %oxide-opt %s --pass-pipeline="builtin.module(convert-simt-to-nvvm)" | FileCheck %s --check-prefix=ONCE

// LINKED-NOT: __nv_

// Each libdevice function is declared once in the gpu.module, whatever calls it.
// IR-DAG: llvm.func @__nv_fsqrt_rn(f32) -> f32
// IR-DAG: llvm.func @__nv_truncf(f32) -> f32
// IR-DAG: llvm.func @__nv_hypot(f64, f64) -> f64
// IR-DAG: llvm.func @__nv_hypotf(f32, f32) -> f32
// ONCE-COUNT-1: llvm.func @__nv_hypotf(
// ONCE-NOT: llvm.func @__nv_hypotf(

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry sqrt_f32(
    gpu.func @sqrt_f32(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.load %q : !llvm.ptr<1> -> f32
      %r0 = "simt.libdevice"(%x) {fn = "sqrt"} : (f32) -> f32
      // CHECK: sqrt.rn.f32
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r0, %a0 : f32, !llvm.ptr<1>
      gpu.return
    }
    // Why f32 sqrt is simt.libdevice: upstream math.sqrt on f32 is libdevice's __nv_sqrtf, which without
    // the prec-sqrt reflect flag is the approximate instruction, and Rust's sqrt is correctly rounded.
    // CHECK-LABEL: .entry upstream_sqrt_f32(
    gpu.func @upstream_sqrt_f32(%p: !llvm.ptr<1>) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      // CHECK: sqrt.approx.f32
      %r = math.sqrt %x : f32
      llvm.store %r, %p : f32, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry sqrt_f64(
    gpu.func @sqrt_f64(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f64
      %y = llvm.load %q : !llvm.ptr<1> -> f64
      %r0 = math.sqrt %x : f64
      // CHECK: sqrt.rn.f64
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r0, %a0 : f64, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry mul_add(
    gpu.func @mul_add(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.load %q : !llvm.ptr<1> -> f32
      %r0 = math.fma %x, %y, %x : f32
      // CHECK: fma.rn.f32
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r0, %a0 : f32, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry rounding(
    gpu.func @rounding(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.load %q : !llvm.ptr<1> -> f32
      %r0 = math.floor %x : f32
      %r1 = math.ceil %y : f32
      %r2 = math.roundeven %x : f32
      %r3 = "simt.libdevice"(%y) {fn = "trunc"} : (f32) -> f32
      // CHECK: cvt.rmi.f32.f32
      // CHECK: cvt.rpi.f32.f32
      // CHECK: cvt.rni.f32.f32
      // CHECK: cvt.rzi.f32.f32
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r0, %a0 : f32, !llvm.ptr<1>
      %a1 = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r1, %a1 : f32, !llvm.ptr<1>
      %a2 = llvm.getelementptr %p[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r2, %a2 : f32, !llvm.ptr<1>
      %a3 = llvm.getelementptr %p[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r3, %a3 : f32, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry round_ties_away(
    gpu.func @round_ties_away(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f64
      %y = llvm.load %q : !llvm.ptr<1> -> f64
      %r0 = math.round %x : f64
      // Ties away from zero: trunc(x + copysign(0.5, x)), the addition rounding toward zero.
      // (PTX's copysign takes the sign from its first source.)
      // CHECK: mov.b64 [[POINT5:%rd[0-9]+]], 0d3FE0000000000000
      // CHECK: copysign.f64 [[HALF:%rd[0-9]+]], [[X:%rd[0-9]+]], [[POINT5]]
      // CHECK: add.rz.f64 [[SUM:%rd[0-9]+]], [[X]], [[HALF]]
      // CHECK: cvt.rzi.f64.f64 %rd{{[0-9]+}}, [[SUM]]
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r0, %a0 : f64, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry sign_and_minmax(
    gpu.func @sign_and_minmax(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.load %q : !llvm.ptr<1> -> f32
      %r0 = math.absf %x : f32
      %r1 = math.copysign %x, %y : f32
      %r2 = arith.minnumf %x, %y : f32
      %r3 = arith.maxnumf %x, %y : f32
      %r4 = arith.minimumf %x, %y : f32
      %r5 = arith.maximumf %x, %y : f32
      // CHECK: abs.f32
      // CHECK: copysign.f32
      // CHECK: min.f32
      // CHECK: max.f32
      // CHECK: min.NaN.f32
      // CHECK: max.NaN.f32
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r0, %a0 : f32, !llvm.ptr<1>
      %a1 = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r1, %a1 : f32, !llvm.ptr<1>
      %a2 = llvm.getelementptr %p[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r2, %a2 : f32, !llvm.ptr<1>
      %a3 = llvm.getelementptr %p[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r3, %a3 : f32, !llvm.ptr<1>
      %a4 = llvm.getelementptr %p[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r4, %a4 : f32, !llvm.ptr<1>
      %a5 = llvm.getelementptr %p[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r5, %a5 : f32, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry exp(
    gpu.func @exp(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.load %q : !llvm.ptr<1> -> f32
      %r0 = math.exp %x : f32
      // CHECK: ex2.approx
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r0, %a0 : f32, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry hypot(
    gpu.func @hypot(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.load %q : !llvm.ptr<1> -> f32
      // IR-LABEL: gpu.func @hypot(
      // IR: llvm.call @__nv_hypotf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
      // IR: llvm.call @__nv_hypotf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
      %h = "simt.libdevice"(%x, %y) {fn = "hypot"} : (f32, f32) -> f32
      %r0 = "simt.libdevice"(%h, %y) {fn = "hypot"} : (f32, f32) -> f32
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r0, %a0 : f32, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry hypot_f64(
    gpu.func @hypot_f64(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f64
      %y = llvm.load %q : !llvm.ptr<1> -> f64
      %r0 = "simt.libdevice"(%x, %y) {fn = "hypot"} : (f64, f64) -> f64
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r0, %a0 : f64, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry transcendentals_f32(
    gpu.func @transcendentals_f32(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.load %q : !llvm.ptr<1> -> f32
      %r0 = math.sin %x : f32
      %r1 = math.cos %x : f32
      %r2 = math.tan %x : f32
      %r3 = math.asin %x : f32
      %r4 = math.acos %x : f32
      %r5 = math.atan %x : f32
      %r6 = math.sinh %x : f32
      %r7 = math.cosh %x : f32
      %r8 = math.tanh %x : f32
      %r9 = math.asinh %x : f32
      %r10 = math.acosh %x : f32
      %r11 = math.atanh %x : f32
      %r12 = math.cbrt %x : f32
      %r13 = math.expm1 %x : f32
      %r14 = math.log1p %x : f32
      %r15 = math.log %x : f32
      %r16 = math.log2 %x : f32
      %r17 = math.log10 %x : f32
      %r18 = math.exp2 %x : f32
      %r19 = math.atan2 %x, %y : f32
      %r20 = math.powf %x, %y : f32
      %r21 = math.fpowi %x, %e : f32, i32
      %r22, %r23 = math.sincos %y : f32
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r0, %a0 : f32, !llvm.ptr<1>
      %a1 = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r1, %a1 : f32, !llvm.ptr<1>
      %a2 = llvm.getelementptr %p[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r2, %a2 : f32, !llvm.ptr<1>
      %a3 = llvm.getelementptr %p[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r3, %a3 : f32, !llvm.ptr<1>
      %a4 = llvm.getelementptr %p[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r4, %a4 : f32, !llvm.ptr<1>
      %a5 = llvm.getelementptr %p[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r5, %a5 : f32, !llvm.ptr<1>
      %a6 = llvm.getelementptr %p[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r6, %a6 : f32, !llvm.ptr<1>
      %a7 = llvm.getelementptr %p[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r7, %a7 : f32, !llvm.ptr<1>
      %a8 = llvm.getelementptr %p[8] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r8, %a8 : f32, !llvm.ptr<1>
      %a9 = llvm.getelementptr %p[9] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r9, %a9 : f32, !llvm.ptr<1>
      %a10 = llvm.getelementptr %p[10] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r10, %a10 : f32, !llvm.ptr<1>
      %a11 = llvm.getelementptr %p[11] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r11, %a11 : f32, !llvm.ptr<1>
      %a12 = llvm.getelementptr %p[12] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r12, %a12 : f32, !llvm.ptr<1>
      %a13 = llvm.getelementptr %p[13] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r13, %a13 : f32, !llvm.ptr<1>
      %a14 = llvm.getelementptr %p[14] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r14, %a14 : f32, !llvm.ptr<1>
      %a15 = llvm.getelementptr %p[15] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r15, %a15 : f32, !llvm.ptr<1>
      %a16 = llvm.getelementptr %p[16] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r16, %a16 : f32, !llvm.ptr<1>
      %a17 = llvm.getelementptr %p[17] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r17, %a17 : f32, !llvm.ptr<1>
      %a18 = llvm.getelementptr %p[18] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r18, %a18 : f32, !llvm.ptr<1>
      %a19 = llvm.getelementptr %p[19] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r19, %a19 : f32, !llvm.ptr<1>
      %a20 = llvm.getelementptr %p[20] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r20, %a20 : f32, !llvm.ptr<1>
      %a21 = llvm.getelementptr %p[21] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r21, %a21 : f32, !llvm.ptr<1>
      %a22 = llvm.getelementptr %p[22] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r22, %a22 : f32, !llvm.ptr<1>
      %a23 = llvm.getelementptr %p[23] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
      llvm.store %r23, %a23 : f32, !llvm.ptr<1>
      gpu.return
    }
    // CHECK-LABEL: .entry transcendentals_f64(
    gpu.func @transcendentals_f64(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %e: i32) kernel {
      %x = llvm.load %p : !llvm.ptr<1> -> f64
      %y = llvm.load %q : !llvm.ptr<1> -> f64
      %r0 = math.sin %x : f64
      %r1 = math.cos %x : f64
      %r2 = math.tan %x : f64
      %r3 = math.asin %x : f64
      %r4 = math.acos %x : f64
      %r5 = math.atan %x : f64
      %r6 = math.sinh %x : f64
      %r7 = math.cosh %x : f64
      %r8 = math.tanh %x : f64
      %r9 = math.asinh %x : f64
      %r10 = math.acosh %x : f64
      %r11 = math.atanh %x : f64
      %r12 = math.cbrt %x : f64
      %r13 = math.expm1 %x : f64
      %r14 = math.log1p %x : f64
      %r15 = math.log %x : f64
      %r16 = math.log2 %x : f64
      %r17 = math.log10 %x : f64
      %r18 = math.exp2 %x : f64
      %r19 = math.atan2 %x, %y : f64
      %r20 = math.powf %x, %y : f64
      %r21 = math.fpowi %x, %e : f64, i32
      %r22, %r23 = math.sincos %y : f64
      %a0 = llvm.getelementptr %p[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r0, %a0 : f64, !llvm.ptr<1>
      %a1 = llvm.getelementptr %p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r1, %a1 : f64, !llvm.ptr<1>
      %a2 = llvm.getelementptr %p[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r2, %a2 : f64, !llvm.ptr<1>
      %a3 = llvm.getelementptr %p[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r3, %a3 : f64, !llvm.ptr<1>
      %a4 = llvm.getelementptr %p[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r4, %a4 : f64, !llvm.ptr<1>
      %a5 = llvm.getelementptr %p[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r5, %a5 : f64, !llvm.ptr<1>
      %a6 = llvm.getelementptr %p[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r6, %a6 : f64, !llvm.ptr<1>
      %a7 = llvm.getelementptr %p[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r7, %a7 : f64, !llvm.ptr<1>
      %a8 = llvm.getelementptr %p[8] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r8, %a8 : f64, !llvm.ptr<1>
      %a9 = llvm.getelementptr %p[9] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r9, %a9 : f64, !llvm.ptr<1>
      %a10 = llvm.getelementptr %p[10] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r10, %a10 : f64, !llvm.ptr<1>
      %a11 = llvm.getelementptr %p[11] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r11, %a11 : f64, !llvm.ptr<1>
      %a12 = llvm.getelementptr %p[12] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r12, %a12 : f64, !llvm.ptr<1>
      %a13 = llvm.getelementptr %p[13] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r13, %a13 : f64, !llvm.ptr<1>
      %a14 = llvm.getelementptr %p[14] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r14, %a14 : f64, !llvm.ptr<1>
      %a15 = llvm.getelementptr %p[15] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r15, %a15 : f64, !llvm.ptr<1>
      %a16 = llvm.getelementptr %p[16] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r16, %a16 : f64, !llvm.ptr<1>
      %a17 = llvm.getelementptr %p[17] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r17, %a17 : f64, !llvm.ptr<1>
      %a18 = llvm.getelementptr %p[18] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r18, %a18 : f64, !llvm.ptr<1>
      %a19 = llvm.getelementptr %p[19] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r19, %a19 : f64, !llvm.ptr<1>
      %a20 = llvm.getelementptr %p[20] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r20, %a20 : f64, !llvm.ptr<1>
      %a21 = llvm.getelementptr %p[21] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r21, %a21 : f64, !llvm.ptr<1>
      %a22 = llvm.getelementptr %p[22] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r22, %a22 : f64, !llvm.ptr<1>
      %a23 = llvm.getelementptr %p[23] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
      llvm.store %r23, %a23 : f64, !llvm.ptr<1>
      gpu.return
    }
  }
}
