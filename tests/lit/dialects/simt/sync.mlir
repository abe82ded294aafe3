// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @barriers
func.func @barriers(%mask: i32) {
  // CHECK: "simt.sync_threads"() : () -> ()
  "simt.sync_threads"() : () -> ()
  // CHECK: "simt.warp_sync"(%{{.*}}) : (i32) -> ()
  "simt.warp_sync"(%mask) : (i32) -> ()
  // CHECK: "simt.named_barrier"() {id = 1 : i32, threads = 256 : i32} : () -> ()
  "simt.named_barrier"() {id = 1 : i32, threads = 256 : i32} : () -> ()
  // CHECK: "simt.named_barrier_arrive"() {id = 2 : i32, threads = 256 : i32} : () -> ()
  "simt.named_barrier_arrive"() {id = 2 : i32, threads = 256 : i32} : () -> ()
  return
}

// CHECK-LABEL: func.func @fences
func.func @fences() {
  // CHECK: "simt.thread_fence"() {scope = "block"} : () -> ()
  "simt.thread_fence"() {scope = "block"} : () -> ()
  // CHECK: "simt.thread_fence"() {scope = "device"} : () -> ()
  "simt.thread_fence"() {scope = "device"} : () -> ()
  // CHECK: "simt.thread_fence"() {scope = "system"} : () -> ()
  "simt.thread_fence"() {scope = "system"} : () -> ()
  return
}
