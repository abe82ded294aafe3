// RUN: %oxide-opt %s | FileCheck %s
// Every mbarrier and async-proxy fence op parses, verifies and prints back.

// CHECK-LABEL: func.func @barrier_ops
func.func @barrier_ops(%bar: !simt.ptr<i64, 3 : i64>, %n: i32, %tx: i32, %tok: i64, %par: i32, %remote: i64) {
  // CHECK: "simt.mbarrier_init"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> ()
  "simt.mbarrier_init"(%bar, %n) : (!simt.ptr<i64, 3 : i64>, i32) -> ()
  // CHECK: "simt.mbarrier_arrive"(%{{.*}}) : (!simt.ptr<i64, 3 : i64>) -> i64
  %t0 = "simt.mbarrier_arrive"(%bar) : (!simt.ptr<i64, 3 : i64>) -> i64
  // CHECK: "simt.mbarrier_arrive"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> i64
  %t1 = "simt.mbarrier_arrive"(%bar, %n) : (!simt.ptr<i64, 3 : i64>, i32) -> i64
  // CHECK: "simt.mbarrier_arrive_no_complete"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> i64
  %t2 = "simt.mbarrier_arrive_no_complete"(%bar, %n) : (!simt.ptr<i64, 3 : i64>, i32) -> i64
  // CHECK: "simt.mbarrier_arrive_expect_tx"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> i64
  %t3 = "simt.mbarrier_arrive_expect_tx"(%bar, %tx) : (!simt.ptr<i64, 3 : i64>, i32) -> i64
  // CHECK: "simt.mbarrier_arrive_expect_tx"(%{{.*}}, %{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32, i32) -> i64
  %t4 = "simt.mbarrier_arrive_expect_tx"(%bar, %tx, %n) : (!simt.ptr<i64, 3 : i64>, i32, i32) -> i64
  // CHECK: "simt.mbarrier_expect_tx"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> ()
  "simt.mbarrier_expect_tx"(%bar, %tx) : (!simt.ptr<i64, 3 : i64>, i32) -> ()
  // CHECK: "simt.mbarrier_test_wait"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i64) -> i1
  %d0 = "simt.mbarrier_test_wait"(%bar, %tok) : (!simt.ptr<i64, 3 : i64>, i64) -> i1
  // CHECK: "simt.mbarrier_try_wait"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i64) -> i1
  %d1 = "simt.mbarrier_try_wait"(%bar, %tok) : (!simt.ptr<i64, 3 : i64>, i64) -> i1
  // CHECK: "simt.mbarrier_try_wait_parity"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> i1
  %d2 = "simt.mbarrier_try_wait_parity"(%bar, %par) : (!simt.ptr<i64, 3 : i64>, i32) -> i1
  // CHECK: "simt.mbarrier_wait"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i64) -> ()
  "simt.mbarrier_wait"(%bar, %tok) : (!simt.ptr<i64, 3 : i64>, i64) -> ()
  // CHECK: "simt.mbarrier_wait_parity"(%{{.*}}, %{{.*}}) : (!simt.ptr<i64, 3 : i64>, i32) -> ()
  "simt.mbarrier_wait_parity"(%bar, %par) : (!simt.ptr<i64, 3 : i64>, i32) -> ()
  // CHECK: "simt.mbarrier_arrive_cluster"(%{{.*}}) {scope = "cluster"} : (i64) -> ()
  "simt.mbarrier_arrive_cluster"(%remote) {scope = "cluster"} : (i64) -> ()
  // CHECK: "simt.mbarrier_inval"(%{{.*}}) : (!simt.ptr<i64, 3 : i64>) -> ()
  "simt.mbarrier_inval"(%bar) : (!simt.ptr<i64, 3 : i64>) -> ()
  // CHECK: "simt.fence_proxy_async"() {space = "shared_cta"} : () -> ()
  "simt.fence_proxy_async"() {space = "shared_cta"} : () -> ()
  // CHECK: "simt.fence_proxy_async"() {space = "shared_cluster"} : () -> ()
  "simt.fence_proxy_async"() {space = "shared_cluster"} : () -> ()
  // CHECK: "simt.fence_proxy_async"() {space = "global"} : () -> ()
  "simt.fence_proxy_async"() {space = "global"} : () -> ()
  // CHECK: "simt.fence_proxy_async"() {space = "all"} : () -> ()
  "simt.fence_proxy_async"() {space = "all"} : () -> ()
  // CHECK: "simt.fence_mbarrier_init"() : () -> ()
  "simt.fence_mbarrier_init"() : () -> ()
  return
}
