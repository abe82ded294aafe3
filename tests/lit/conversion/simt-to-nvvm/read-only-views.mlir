// A read-only slice whose address is taken keeps noalias + readonly when everything derived from it only
// reads (a view through slice_ptr/slice_from_ptr, element pointers, an alignment test of the address):
// that is `vector::as_vectors`. A derived pointer that is written through (or any other use) makes the
// slice escape: no facts, coherent reads.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @view(
    // CHECK-SAME: %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}
    gpu.func @view(%a: !simt.slice<f32>, %out: !simt.slice_mut<f32>) kernel {
      %p = "simt.slice_ptr"(%a) : (!simt.slice<f32>) -> !simt.ptr<f32, 1>
      %addr = "simt.ptr_to_int"(%p) : (!simt.ptr<f32, 1>) -> i64
      %c15 = arith.constant 15 : i64
      %low = arith.andi %addr, %c15 : i64
      %q = "simt.ptr_cast"(%p) : (!simt.ptr<f32, 1>) -> !simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>
      %n = "simt.len"(%a) : (!simt.slice<f32>) -> index
      %v = "simt.slice_from_ptr"(%q, %n) : (!simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>, index) -> !simt.slice<!llvm.struct<(array<4 x f32>)>>
      %c0 = arith.constant 0 : index
      %e = "simt.elem_ptr"(%v, %c0) : (!simt.slice<!llvm.struct<(array<4 x f32>)>>, index) -> !simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>
      %f = "simt.field_ptr"(%e) {field = 0 : i64} : (!simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>) -> !simt.ptr<!llvm.array<4 x f32>, 1>
      %s = "simt.ptr_cast"(%f) : (!simt.ptr<!llvm.array<4 x f32>, 1>) -> !simt.ptr<f32, 1>
      %x = "simt.ptr_load"(%s) : (!simt.ptr<f32, 1>) -> f32
      "simt.store"(%out, %c0, %x) : (!simt.slice_mut<f32>, index, f32) -> ()
      gpu.return
    }
    // CHECK-LABEL: gpu.func @written(
    // CHECK-NOT: llvm.readonly
    // CHECK: llvm.store
    gpu.func @written(%a: !simt.slice<f32>) kernel {
      %p = "simt.slice_ptr"(%a) : (!simt.slice<f32>) -> !simt.ptr<f32, 1>
      %n = "simt.len"(%a) : (!simt.slice<f32>) -> index
      %w = "simt.slice_from_ptr"(%p, %n) : (!simt.ptr<f32, 1>, index) -> !simt.slice_mut<f32>
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      "simt.store"(%w, %c0, %one) : (!simt.slice_mut<f32>, index, f32) -> ()
      gpu.return
    }
  }
}
