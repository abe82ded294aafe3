// Transaction counts, try_wait, counted arrivals, the parity wait, cluster arrivals and the async-proxy fences
// are sm_90: an older target is a located error at each op, not PTX that ptxas rejects.
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_80 2>&1 | FileCheck %s --check-prefix=ERR
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @hopper(%n: i32, %tx: i32, %par: i32, %t: i64, %remote: i64, %out: !simt.ptr<i1, 1>) kernel {
      %s = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<i64, 1>
      %bar = "simt.shared_ptr"(%s) : (!simt.shared<i64, 1>) -> !simt.ptr<i64, 3>
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:13: error: mbarrier.arrive with an arrival count needs sm_90 or newer, but the target is sm_80
      %t1 = "simt.mbarrier_arrive"(%bar, %n) : (!simt.ptr<i64, 3>, i32) -> i64
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:13: error: mbarrier.arrive.expect_tx (transaction counts) needs sm_90
      %t2 = "simt.mbarrier_arrive_expect_tx"(%bar, %tx) : (!simt.ptr<i64, 3>, i32) -> i64
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:7: error: mbarrier.expect_tx (transaction counts) needs sm_90
      "simt.mbarrier_expect_tx"(%bar, %tx) : (!simt.ptr<i64, 3>, i32) -> ()
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:12: error: mbarrier.try_wait needs sm_90 or newer, but the target is sm_80; use mbarrier_test_wait
      %d = "simt.mbarrier_try_wait"(%bar, %t) : (!simt.ptr<i64, 3>, i64) -> i1
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:13: error: mbarrier.try_wait.parity needs sm_90
      %d2 = "simt.mbarrier_try_wait_parity"(%bar, %par) : (!simt.ptr<i64, 3>, i32) -> i1
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:7: error: mbarrier parity wait needs sm_90
      "simt.mbarrier_wait_parity"(%bar, %par) : (!simt.ptr<i64, 3>, i32) -> ()
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:7: error: a cluster-scope mbarrier arrive needs sm_90
      "simt.mbarrier_arrive_cluster"(%remote) {scope = "cluster"} : (i64) -> ()
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:7: error: fence.proxy.async needs sm_90
      "simt.fence_proxy_async"() {space = "shared_cta"} : () -> ()
      // ERR: mbarrier-chip.mlir:[[# @LINE + 1]]:7: error: fence.mbarrier_init needs sm_90
      "simt.fence_mbarrier_init"() : () -> ()
      "simt.ptr_store"(%out, %d) : (!simt.ptr<i1, 1>, i1) -> ()
      "simt.ptr_store"(%out, %d2) : (!simt.ptr<i1, 1>, i1) -> ()
      gpu.return
    }
  }
}
