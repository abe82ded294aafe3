// RUN: %oxide-opt %s | FileCheck %s
// The cluster and grid ops parse, verify and print.

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @cluster_ops
    gpu.func @cluster_ops(%s: !simt.ptr<f32, 3>, %g: !simt.ptr<i32, 0>, %r: i32) kernel attributes {simt.cluster_dims = array<i32: 2, 1, 1>} {
      // CHECK: "simt.cluster_arrive"() {aligned = false, relaxed = false}
      "simt.cluster_arrive"() {relaxed = false, aligned = false} : () -> ()
      // CHECK: "simt.cluster_arrive"() {aligned = true, relaxed = true}
      "simt.cluster_arrive"() {relaxed = true, aligned = true} : () -> ()
      // CHECK: "simt.cluster_wait"() {aligned = true}
      "simt.cluster_wait"() {aligned = true} : () -> ()
      // CHECK: "simt.map_shared_rank"(%{{.*}}, %{{.*}}) : (!simt.ptr<f32, 3 : i64>, i32) -> !simt.ptr<f32, 7 : i64>
      %q = "simt.map_shared_rank"(%s, %r) : (!simt.ptr<f32, 3>, i32) -> !simt.ptr<f32, 7>
      // CHECK: "simt.map_shared_rank"(%{{.*}}, %{{.*}}) : (!simt.ptr<i32, 0 : i64>, i32) -> !simt.ptr<i32, 0 : i64>
      %p = "simt.map_shared_rank"(%g, %r) : (!simt.ptr<i32, 0>, i32) -> !simt.ptr<i32, 0>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @grid_ops
    // CHECK-SAME: simt.cooperative
    gpu.func @grid_ops(%w: !simt.ptr<i32, 1>) kernel attributes {simt.cooperative} {
      // CHECK: "simt.grid_sync"(%{{.*}}) : (!simt.ptr<i32, 1 : i64>) -> ()
      "simt.grid_sync"(%w) : (!simt.ptr<i32, 1>) -> ()
      gpu.return
    }
  }
}
