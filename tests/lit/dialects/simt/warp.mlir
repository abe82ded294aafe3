// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @shuffles
func.func @shuffles(%m: i32, %o: i32, %a: i32, %b: f32, %c: i64, %d: f64) {
  // CHECK: "simt.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}) {kind = "idx", width = 32 : i64} : (i32, i32, i32) -> i32
  %0 = "simt.shuffle"(%m, %a, %o) {kind = "idx", width = 32} : (i32, i32, i32) -> i32
  // CHECK: "simt.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}) {kind = "up", width = 16 : i64} : (i32, f32, i32) -> f32
  %1 = "simt.shuffle"(%m, %b, %o) {kind = "up", width = 16} : (i32, f32, i32) -> f32
  // CHECK: "simt.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}) {kind = "down", width = 8 : i64} : (i32, i64, i32) -> i64
  %2 = "simt.shuffle"(%m, %c, %o) {kind = "down", width = 8} : (i32, i64, i32) -> i64
  // CHECK: "simt.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}) {kind = "xor", width = 1 : i64} : (i32, f64, i32) -> f64
  %3 = "simt.shuffle"(%m, %d, %o) {kind = "xor", width = 1} : (i32, f64, i32) -> f64
  return
}

// CHECK-LABEL: func.func @votes
func.func @votes(%m: i32, %p: i1) -> (i1, i1, i32) {
  // CHECK: "simt.vote"(%{{.*}}, %{{.*}}) {kind = "all"} : (i32, i1) -> i1
  %all = "simt.vote"(%m, %p) {kind = "all"} : (i32, i1) -> i1
  // CHECK: "simt.vote"(%{{.*}}, %{{.*}}) {kind = "any"} : (i32, i1) -> i1
  %any = "simt.vote"(%m, %p) {kind = "any"} : (i32, i1) -> i1
  // CHECK: "simt.ballot"(%{{.*}}, %{{.*}}) : (i32, i1) -> i32
  %bits = "simt.ballot"(%m, %p) : (i32, i1) -> i32
  return %all, %any, %bits : i1, i1, i32
}

// CHECK-LABEL: func.func @matches
func.func @matches(%m: i32, %a: i32, %c: i64) {
  // CHECK: "simt.match_any"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
  %0 = "simt.match_any"(%m, %a) : (i32, i32) -> i32
  // CHECK: "simt.match_any"(%{{.*}}, %{{.*}}) : (i32, i64) -> i32
  %1 = "simt.match_any"(%m, %c) : (i32, i64) -> i32
  // CHECK: "simt.match_all"(%{{.*}}, %{{.*}}) : (i32, i32) -> (i32, i1)
  %2:2 = "simt.match_all"(%m, %a) : (i32, i32) -> (i32, i1)
  // CHECK: "simt.match_all"(%{{.*}}, %{{.*}}) : (i32, i64) -> (i32, i1)
  %3:2 = "simt.match_all"(%m, %c) : (i32, i64) -> (i32, i1)
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%m: i32, %a: i32) {
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "add"} : (i32, i32) -> i32
  %0 = "simt.redux"(%m, %a) {kind = "add"} : (i32, i32) -> i32
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "min"} : (i32, i32) -> i32
  %1 = "simt.redux"(%m, %a) {kind = "min"} : (i32, i32) -> i32
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "max"} : (i32, i32) -> i32
  %2 = "simt.redux"(%m, %a) {kind = "max"} : (i32, i32) -> i32
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "umin"} : (i32, i32) -> i32
  %3 = "simt.redux"(%m, %a) {kind = "umin"} : (i32, i32) -> i32
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "umax"} : (i32, i32) -> i32
  %4 = "simt.redux"(%m, %a) {kind = "umax"} : (i32, i32) -> i32
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "and"} : (i32, i32) -> i32
  %5 = "simt.redux"(%m, %a) {kind = "and"} : (i32, i32) -> i32
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "or"} : (i32, i32) -> i32
  %6 = "simt.redux"(%m, %a) {kind = "or"} : (i32, i32) -> i32
  // CHECK: "simt.redux"(%{{.*}}, %{{.*}}) {kind = "xor"} : (i32, i32) -> i32
  %7 = "simt.redux"(%m, %a) {kind = "xor"} : (i32, i32) -> i32
  return
}

// CHECK-LABEL: func.func @leader
func.func @leader(%m: i32) -> (i32, i32, i1) {
  // CHECK: "simt.active_mask"() : () -> i32
  %active = "simt.active_mask"() : () -> i32
  // CHECK: "simt.elect"(%{{.*}}) : (i32) -> (i32, i1)
  %lane, %elected = "simt.elect"(%m) : (i32) -> (i32, i1)
  return %active, %lane, %elected : i32, i32, i1
}
