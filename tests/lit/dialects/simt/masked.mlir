// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @runs
func.func @runs(%p: !simt.ptr<f32, 1>, %h: !simt.ptr<bf16, 1>, %s: i64, %n: i64, %v: vector<4xf32>, %c: i1) {
  // CHECK: "simt.masked_load"(%{{.*}}, %{{.*}}, %{{.*}}) : (!simt.ptr<f32, 1 : i64>, i64, i64) -> vector<4xf32>
  %a = "simt.masked_load"(%p, %s, %n) : (!simt.ptr<f32, 1>, i64, i64) -> vector<4xf32>
  // CHECK: "simt.masked_load"(%{{.*}}, %{{.*}}, %{{.*}}) : (!simt.ptr<bf16, 1 : i64>, i64, i64) -> vector<8xbf16>
  %b = "simt.masked_load"(%h, %s, %n) : (!simt.ptr<bf16, 1>, i64, i64) -> vector<8xbf16>
  // CHECK: "simt.masked_store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!simt.ptr<f32, 1 : i64>, i64, i64, vector<4xf32>) -> ()
  "simt.masked_store"(%p, %s, %n, %v) : (!simt.ptr<f32, 1>, i64, i64, vector<4xf32>) -> ()
  // CHECK: "simt.guarded_load"(%{{.*}}, %{{.*}}) {readonly = true} : (!simt.ptr<f32, 1 : i64>, i1) -> vector<4xf32>
  %g = "simt.guarded_load"(%p, %c) {readonly = true} : (!simt.ptr<f32, 1>, i1) -> vector<4xf32>
  // CHECK: "simt.guarded_store"(%{{.*}}, %{{.*}}, %{{.*}}) : (!simt.ptr<f32, 1 : i64>, i1, vector<4xf32>) -> ()
  "simt.guarded_store"(%p, %c, %g) : (!simt.ptr<f32, 1>, i1, vector<4xf32>) -> ()
  return
}
