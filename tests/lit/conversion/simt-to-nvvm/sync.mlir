// Barriers and fences lower to bar.sync (named: bar.sync id, threads; bar.arrive id, threads), bar.warp.sync and membar at the three scopes.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry sync_ops
    gpu.func @sync_ops(%mask: i32) kernel {
      // CHECK: bar.sync 0;
      "simt.sync_threads"() : () -> ()
      // CHECK: bar.sync 1, 256;
      "simt.named_barrier"() {id = 1 : i32, threads = 256 : i32} : () -> ()
      // CHECK: bar.arrive 2, 256;
      "simt.named_barrier_arrive"() {id = 2 : i32, threads = 256 : i32} : () -> ()
      // CHECK: bar.warp.sync %r{{[0-9]+}};
      "simt.warp_sync"(%mask) : (i32) -> ()
      // CHECK: membar.cta;
      "simt.thread_fence"() {scope = "block"} : () -> ()
      // CHECK: membar.gl;
      "simt.thread_fence"() {scope = "device"} : () -> ()
      // CHECK: membar.sys;
      "simt.thread_fence"() {scope = "system"} : () -> ()
      gpu.return
    }
  }
}
