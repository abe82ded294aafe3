// Aggregate elements in memory: a DisjointSlice of structs, a field address through simt.field_ptr
// (getelementptr [0, field] over the !llvm.struct element type) and an array element through
// ptr_cast + ptr_offset; the element stride is the struct's size (16 bytes for {f32, f64}).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=ptx > %t.ptx && ptxas -arch=sm_90 %t.ptx -o /dev/null
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // NVVM-LABEL: gpu.func @fields(
    // NVVM: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !llvm.struct<(f32, f64)>
    // NVVM: llvm.getelementptr {{(inbounds )?}}%{{.*}}[0, 1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, !llvm.struct<(f32, f64)>
    // CHECK-LABEL: .entry fields(
    // CHECK: shl.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4;
    // CHECK: st.global.b64 [%rd{{[0-9]+}}+8]
    // CHECK: mad.lo.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 12,
    // CHECK: st.global.b32 [%rd{{[0-9]+}}+4]
    gpu.func @fields(%out: !simt.disjoint<!llvm.struct<(f32, f64)>, "1d">, %rows: !simt.disjoint<!llvm.array<3 x f32>, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<!llvm.struct<(f32, f64)>, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<!llvm.struct<(f32, f64)>>)
      %ok2, %r2 = "simt.get_mut"(%rows, %w) : (!simt.disjoint<!llvm.array<3 x f32>, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<!llvm.array<3 x f32>>)
      scf.if %ok {
        %p = "simt.ref_ptr"(%r) : (!simt.ref<!llvm.struct<(f32, f64)>>) -> !simt.ptr<!llvm.struct<(f32, f64)>, 1>
        %f = "simt.field_ptr"(%p) {field = 1 : i64} : (!simt.ptr<!llvm.struct<(f32, f64)>, 1>) -> !simt.ptr<f64, 1>
        %one = arith.constant 1.0 : f64
        "simt.ptr_store"(%f, %one) : (!simt.ptr<f64, 1>, f64) -> ()
      }
      scf.if %ok2 {
        %p = "simt.ref_ptr"(%r2) : (!simt.ref<!llvm.array<3 x f32>>) -> !simt.ptr<!llvm.array<3 x f32>, 1>
        %e = "simt.ptr_cast"(%p) : (!simt.ptr<!llvm.array<3 x f32>, 1>) -> !simt.ptr<f32, 1>
        %c1 = arith.constant 1 : index
        %q = "simt.ptr_offset"(%e, %c1) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
        %two = arith.constant 2.0 : f32
        "simt.ptr_store"(%q, %two) : (!simt.ptr<f32, 1>, f32) -> ()
      }
      gpu.return
    }
  }
}
