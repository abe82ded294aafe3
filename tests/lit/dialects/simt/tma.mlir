// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @copies
func.func @copies(%map: !simt.tensor_map, %x: i32, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>, %mask: i16) {
  // CHECK: "simt.tma_load"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 3 : i64>, !simt.tensor_map, i32, !simt.ptr<i64, 3 : i64>) -> ()
  "simt.tma_load"(%dst, %map, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, !simt.ptr<i64, 3>) -> ()
  // CHECK: "simt.tma_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>}
  "simt.tma_load"(%dst, %map, %x, %x, %x, %x, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 5, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, i32, i32, i32, i32, !simt.ptr<i64, 3>) -> ()
  // CHECK: "simt.tma_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>} : (!simt.ptr<i8, 3 : i64>, !simt.tensor_map, i32, i32, !simt.ptr<i64, 3 : i64>, i16) -> ()
  "simt.tma_load"(%dst, %map, %x, %x, %bar, %mask) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, i32, !simt.ptr<i64, 3>, i16) -> ()
  // CHECK: "simt.tma_store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!simt.tensor_map, !simt.ptr<i8, 3 : i64>, i32, i32, i32) -> ()
  "simt.tma_store"(%map, %dst, %x, %x, %x) : (!simt.tensor_map, !simt.ptr<i8, 3>, i32, i32, i32) -> ()
  // CHECK: "simt.bulk_commit_group"() : () -> ()
  "simt.bulk_commit_group"() : () -> ()
  // CHECK: "simt.bulk_wait_group"() {pending = 1 : i64, until = "read"} : () -> ()
  "simt.bulk_wait_group"() {pending = 1 : i64, until = "read"} : () -> ()
  // CHECK: "simt.bulk_wait_group"() {pending = 0 : i64, until = "complete"} : () -> ()
  "simt.bulk_wait_group"() {pending = 0 : i64, until = "complete"} : () -> ()
  // CHECK: "simt.tma_prefetch"(%{{.*}}) : (!simt.tensor_map) -> ()
  "simt.tma_prefetch"(%map) : (!simt.tensor_map) -> ()
  return
}
