// REQUIRES: ptxas
// Address casts go through the generic space (cvta) before ptrtoint; an integer comes back as a generic
// pointer. simt.inline_ptx becomes llvm.inline_asm, with pointer operands as LLVM pointers and several
// outputs through a struct; ptxas assembles the result. Operands and results of different types are separate
// optional groups (IRDL ties one type to a variadic group).
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --emit=ptx > %t.ptx && ptxas -arch=sm_90 %t.ptx -o /dev/null
// RUN: %oxide-opt %s --pass-pipeline="builtin.module(convert-simt-to-nvvm)" | FileCheck %s --check-prefix=IR

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry addresses(
    gpu.func @addresses(%p: !simt.ptr<f32, 1>, %out: !simt.slice_mut<i64>) kernel {
      %s = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 64>
      %sp = "simt.shared_ptr"(%s) : (!simt.shared<f32, 64>) -> !simt.ptr<f32, 3>
      // IR: llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr
      // IR: llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
      // The round trip of the global pointer through an integer folds back to a global load.
      // CHECK: ld.global.b32
      // CHECK: cvta.shared.u64
      %a = "simt.ptr_to_int"(%sp) : (!simt.ptr<f32, 3>) -> i64
      %g = "simt.ptr_to_int"(%p) : (!simt.ptr<f32, 1>) -> i64
      %q = "simt.int_to_ptr"(%g) : (i64) -> !simt.ptr<f32, 0>
      // IR: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
      %v = "simt.ptr_load"(%q) : (!simt.ptr<f32, 0>) -> f32
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      "simt.store"(%out, %zero, %a) : (!simt.slice_mut<i64>, index, i64) -> ()
      %vi = arith.fptosi %v : f32 to i64
      "simt.store"(%out, %one, %vi) : (!simt.slice_mut<i64>, index, i64) -> ()
      gpu.return
    }

    // CHECK-LABEL: .entry asm(
    gpu.func @asm(%a: i32, %b: i32, %c: i32, %out: !simt.slice_mut<i32>) kernel {
      // IR: llvm.inline_asm has_side_effects "dp4a.s32.s32 $0, $1, $2, $3;", "=r,r,r,r"
      // CHECK: dp4a.s32.s32
      %d = "simt.inline_ptx"(%a, %b, %c) {asm = "dp4a.s32.s32 $0, $1, $2, $3;", constraints = "=r,r,r,r", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>} : (i32, i32, i32) -> i32
      // Two outputs travel through an LLVM struct.
      // IR: llvm.inline_asm has_side_effects "mov.b64 {$0, $1}, $2;", "=r,=r,l" {{.*}} -> !llvm.struct<(i32, i32)>
      // CHECK: mov.b64 {
      %wide = arith.constant 4294967298 : i64
      %lo, %hi = "simt.inline_ptx"(%wide) {asm = "mov.b64 {$0, $1}, $2;", constraints = "=r,=r,l", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>} : (i64) -> (i32, i32)
      // No outputs: a side effect only.
      // CHECK: brkpt;
      "simt.inline_ptx"() {asm = "brkpt;", constraints = "", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>} : () -> ()
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %two = arith.constant 2 : index
      "simt.store"(%out, %zero, %d) : (!simt.slice_mut<i32>, index, i32) -> ()
      "simt.store"(%out, %one, %lo) : (!simt.slice_mut<i32>, index, i32) -> ()
      "simt.store"(%out, %two, %hi) : (!simt.slice_mut<i32>, index, i32) -> ()
      gpu.return
    }

    // Outputs of different types.
    // CHECK-LABEL: .entry mixed(
    // CHECK: add.f32
    gpu.func @mixed(%x: f32, %n: i64, %out: !simt.slice_mut<f32>) kernel {
      %f, %w = "simt.inline_ptx"(%x, %n) {asm = "add.f32 $0, $2, $2; add.u64 $1, $3, 1;", constraints = "=f,=l,f,l", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>} : (f32, i64) -> (f32, i64)
      %zero = arith.constant 0 : index
      "simt.store"(%out, %zero, %f) : (!simt.slice_mut<f32>, index, f32) -> ()
      gpu.return
    }
  }
}

