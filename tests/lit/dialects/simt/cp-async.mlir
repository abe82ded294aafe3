// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @copies
func.func @copies(%d: !simt.ptr<f16, 3>, %s: !simt.ptr<f16, 1>, %n: i32, %df: !simt.ptr<f32, 3>, %sf: !simt.ptr<f32, 1>) {
  // CHECK: "simt.cp_async"(%{{.*}}, %{{.*}}) {bytes = 16 : i64} : (!simt.ptr<f16, 3 : i64>, !simt.ptr<f16, 1 : i64>) -> ()
  "simt.cp_async"(%d, %s) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>) -> ()
  // CHECK: "simt.cp_async"(%{{.*}}, %{{.*}}, %{{.*}}) {bytes = 8 : i64} : (!simt.ptr<f16, 3 : i64>, !simt.ptr<f16, 1 : i64>, i32) -> ()
  "simt.cp_async"(%d, %s, %n) {bytes = 8 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>, i32) -> ()
  // CHECK: "simt.cp_async"(%{{.*}}, %{{.*}}) {bytes = 4 : i64} : (!simt.ptr<f32, 3 : i64>, !simt.ptr<f32, 1 : i64>) -> ()
  "simt.cp_async"(%df, %sf) {bytes = 4 : i64} : (!simt.ptr<f32, 3>, !simt.ptr<f32, 1>) -> ()
  // CHECK: "simt.cp_async_commit_group"() : () -> ()
  "simt.cp_async_commit_group"() : () -> ()
  // CHECK: "simt.cp_async_wait_group"() {pending = 2 : i64} : () -> ()
  "simt.cp_async_wait_group"() {pending = 2 : i64} : () -> ()
  // CHECK: "simt.cp_async_wait_group"() {pending = 0 : i64} : () -> ()
  "simt.cp_async_wait_group"() {pending = 0 : i64} : () -> ()
  return
}
