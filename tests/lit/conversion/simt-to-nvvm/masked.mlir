// Masked vector accesses lower to LLVM's masked gather/scatter at the element's alignment (lane k at
// p + k * stride, active when k < count); NVPTX expands them into predicated scalar accesses.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm{chip=sm_80})' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=ptx --chip sm_80 | FileCheck %s --check-prefix=PTX

module attributes {gpu.container_module} {
  gpu.module @k {
    // PTX-LABEL: .entry edge(
    gpu.func @edge(%p: !simt.ptr<f32, 1>, %q: !simt.ptr<f32, 1>, %s: i64, %n: i64) kernel {
      // NVVM: %[[IOTA:.*]] = llvm.mlir.constant(dense<[0, 1, 2, 3]> : vector<4xi64>) : vector<4xi64>
      // NVVM: %[[MASK:.*]] = llvm.icmp "slt" %[[IOTA]], %{{.*}} : vector<4xi64>
      // NVVM: %[[OFF:.*]] = llvm.mul %[[IOTA]], %{{.*}} : vector<4xi64>
      // NVVM: %[[PTRS:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] : (!llvm.ptr<1>, vector<4xi64>) -> vector<4x!llvm.ptr<1>>, f32
      // NVVM: llvm.intr.masked.gather %[[PTRS]], %[[MASK]], %{{.*}} {alignment = 4 : i32}
      %v = "simt.masked_load"(%p, %s, %n) : (!simt.ptr<f32, 1>, i64, i64) -> vector<4xf32>
      // NVVM: llvm.intr.masked.scatter %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32}
      "simt.masked_store"(%q, %s, %n, %v) : (!simt.ptr<f32, 1>, i64, i64, vector<4xf32>) -> ()
      // PTX-COUNT-4: ld.global.b32
      // PTX-COUNT-4: st.global.b32
      // PTX-NOT: ld.global
      gpu.return
    }
    // A guarded access is one predicated PTX access, after zeroing moves for a load; no branch.
    // PTX-LABEL: .entry guarded(
    gpu.func @guarded(%p: !simt.ptr<f32, 1>, %q: !simt.ptr<f32, 1>, %c: i1) kernel {
      // PTX: mov.b32 %r{{[0-9]+}}, 0; mov.b32 %r{{[0-9]+}}, 0; mov.b32 %r{{[0-9]+}}, 0; mov.b32 %r{{[0-9]+}}, 0; @%p{{[0-9]+}} ld.global.nc.v4.b32
      %v = "simt.guarded_load"(%p, %c) {readonly = true} : (!simt.ptr<f32, 1>, i1) -> vector<4xf32>
      // PTX: @%p{{[0-9]+}} st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
      "simt.guarded_store"(%q, %c, %v) : (!simt.ptr<f32, 1>, i1, vector<4xf32>) -> ()
      // PTX: mov.b32 %r{{[0-9]+}}, 0; @%p{{[0-9]+}} ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
      %s = "simt.guarded_load"(%q, %c) {readonly = false} : (!simt.ptr<f32, 1>, i1) -> vector<1xf32>
      // PTX: @%p{{[0-9]+}} st.global.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
      "simt.guarded_store"(%p, %c, %s) : (!simt.ptr<f32, 1>, i1, vector<1xf32>) -> ()
      // PTX-NOT: bra
      gpu.return
    }
  }
}
