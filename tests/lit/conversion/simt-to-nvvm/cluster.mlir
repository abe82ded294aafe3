// The cluster barrier lowers to barrier.cluster.{arrive,wait}[.relaxed][.aligned], map_shared_rank to mapa
// (a shared pointer to a shared::cluster one, whose loads are ld.shared::cluster), and grid_sync to the
// generation-counting barrier on its workspace; an sm_80 target is a located error at each cluster op.
// RUN: %oxide-opt %s --emit=ptx --chip=sm_90a | FileCheck %s
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry cluster_ops
    // CHECK: .reqnctapercluster 2, 1, 1
    gpu.func @cluster_ops(%r: i32, %g: !simt.ptr<i32, 0>, %out: !llvm.ptr<1>) kernel attributes {simt.cluster_dims = array<i32: 2, 1, 1>} {
      // CHECK: barrier.cluster.arrive;
      // SM80: cluster.mlir:[[# @LINE + 1]]:7: error: the cluster barrier (barrier.cluster.arrive) needs sm_90 or newer, but the target is sm_80
      "simt.cluster_arrive"() {relaxed = false, aligned = false} : () -> ()
      // CHECK: barrier.cluster.arrive.relaxed.aligned;
      "simt.cluster_arrive"() {relaxed = true, aligned = true} : () -> ()
      // CHECK: barrier.cluster.wait.aligned;
      // SM80: cluster.mlir:[[# @LINE + 1]]:7: error: the cluster barrier (barrier.cluster.wait) needs sm_90
      "simt.cluster_wait"() {aligned = true} : () -> ()
      %s = "simt.from_generic"(%g) : (!simt.ptr<i32, 0>) -> !simt.ptr<i32, 3>
      // CHECK: mapa.shared::cluster.u64
      // CHECK: ld.shared::cluster.b32
      // SM80: cluster.mlir:[[# @LINE + 1]]:12: error: distributed shared memory (mapa) needs sm_90
      %q = "simt.map_shared_rank"(%s, %r) : (!simt.ptr<i32, 3>, i32) -> !simt.ptr<i32, 7>
      %v = "simt.ptr_load"(%q) : (!simt.ptr<i32, 7>) -> i32
      // CHECK: mapa.u64
      // CHECK: ld.b32
      %p = "simt.map_shared_rank"(%g, %r) : (!simt.ptr<i32, 0>, i32) -> !simt.ptr<i32, 0>
      %w = "simt.ptr_load"(%p) : (!simt.ptr<i32, 0>) -> i32
      %sum = arith.addi %v, %w : i32
      llvm.store %sum, %out : i32, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: .entry grid_ops
    gpu.func @grid_ops(%ws: !simt.ptr<i32, 1>) kernel attributes {simt.cooperative} {
      // CHECK: bar.sync 0;
      // CHECK: ld.relaxed.gpu.global.b32 [[GEN:%r[0-9]+]], [[[WS:%rd[0-9]+]]+4];
      // CHECK: membar.gl;
      // CHECK: atom.global.add.u32 {{%r[0-9]+}}, [[[WS]]], 1;
      // CHECK: st.relaxed.gpu.global.b32 [[[WS]]], 0;
      // CHECK: membar.gl;
      // CHECK: atom.global.add.u32 {{%r[0-9]+}}, [[[WS]]+4], 1;
      // CHECK: ld.acquire.gpu.global.b32 [[NOW:%r[0-9]+]], [[[WS]]+4];
      // CHECK: setp.eq.b32 [[SAME:%p[0-9]+]], [[NOW]], [[GEN]];
      // CHECK: @[[SAME]] bra
      // CHECK: membar.gl;
      // CHECK: bar.sync 0;
      "simt.grid_sync"(%ws) : (!simt.ptr<i32, 1>) -> ()
      gpu.return
    }
  }
}
