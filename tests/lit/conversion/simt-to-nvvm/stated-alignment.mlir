// Leaf accesses of an over-aligned struct (`#[repr(C, align(16))] struct F4([f32; 4])`) state their
// alignment (simt.align on ptr_load/ptr_store), which becomes the llvm.load/llvm.store alignment; LLVM then
// merges the four leaves into one 128-bit access. A read-only slice whose element pointers are only read
// through (elem_ptr -> field_ptr -> ptr_cast -> ptr_offset -> ptr_load) keeps noalias + readonly, so its
// loads are ld.global.nc.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=ptx > %t.ptx && ptxas -arch=sm_90 %t.ptx -o /dev/null
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // NVVM-LABEL: gpu.func @copy4(
    // NVVM-SAME: %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}
    // NVVM: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> f32
    // NVVM: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    // NVVM: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> f32
    // NVVM: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : f32, !llvm.ptr<1>
    // CHECK-LABEL: .entry copy4(
    // CHECK: ld.global.nc.v4.{{[bf]}}32
    // CHECK: st.global.v4.{{[bf]}}32
    gpu.func @copy4(%a: !simt.slice<!llvm.struct<(array<4 x f32>)>>, %c: !simt.disjoint<!llvm.struct<(array<4 x f32>)>, "1d">) kernel {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
      %ok, %r = "simt.get_mut"(%c, %w) : (!simt.disjoint<!llvm.struct<(array<4 x f32>)>, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<!llvm.struct<(array<4 x f32>)>>)
      scf.if %ok {
        %e = "simt.elem_ptr"(%a, %i) : (!simt.slice<!llvm.struct<(array<4 x f32>)>>, index) -> !simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>
        %f = "simt.field_ptr"(%e) {field = 0 : i64} : (!simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>) -> !simt.ptr<!llvm.array<4 x f32>, 1>
        %p = "simt.ptr_cast"(%f) : (!simt.ptr<!llvm.array<4 x f32>, 1>) -> !simt.ptr<f32, 1>
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %p1 = "simt.ptr_offset"(%p, %c1) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
        %p2 = "simt.ptr_offset"(%p, %c2) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
        %p3 = "simt.ptr_offset"(%p, %c3) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
        %x0 = "simt.ptr_load"(%p) {simt.align = 16 : i64} : (!simt.ptr<f32, 1>) -> f32
        %x1 = "simt.ptr_load"(%p1) : (!simt.ptr<f32, 1>) -> f32
        %x2 = "simt.ptr_load"(%p2) {simt.align = 8 : i64} : (!simt.ptr<f32, 1>) -> f32
        %x3 = "simt.ptr_load"(%p3) : (!simt.ptr<f32, 1>) -> f32
        %o = "simt.ref_ptr"(%r) : (!simt.ref<!llvm.struct<(array<4 x f32>)>>) -> !simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>
        %of = "simt.field_ptr"(%o) {field = 0 : i64} : (!simt.ptr<!llvm.struct<(array<4 x f32>)>, 1>) -> !simt.ptr<!llvm.array<4 x f32>, 1>
        %q = "simt.ptr_cast"(%of) : (!simt.ptr<!llvm.array<4 x f32>, 1>) -> !simt.ptr<f32, 1>
        %q1 = "simt.ptr_offset"(%q, %c1) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
        %q2 = "simt.ptr_offset"(%q, %c2) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
        %q3 = "simt.ptr_offset"(%q, %c3) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
        "simt.ptr_store"(%q, %x3) {simt.align = 16 : i64} : (!simt.ptr<f32, 1>, f32) -> ()
        "simt.ptr_store"(%q1, %x2) : (!simt.ptr<f32, 1>, f32) -> ()
        "simt.ptr_store"(%q2, %x1) {simt.align = 8 : i64} : (!simt.ptr<f32, 1>, f32) -> ()
        "simt.ptr_store"(%q3, %x0) : (!simt.ptr<f32, 1>, f32) -> ()
      }
      gpu.return
    }
  }
}
