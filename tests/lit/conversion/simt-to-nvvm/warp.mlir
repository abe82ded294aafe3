// Warp ops lower to shfl.sync, vote.sync, match.sync, redux.sync, elect.sync and activemask.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM

module attributes {gpu.container_module} {
  gpu.module @k {
    // The segment operand c is (32 - width) << 8, or-ed with the bound lane: 31, or 0 for `up`.
    // CHECK-LABEL: .entry shuffle_32(
    // CHECK: shfl.sync.idx.b32 {{.*}}, 31, %r{{[0-9]+}};
    // CHECK: shfl.sync.up.b32 {{.*}}, 4096, %r{{[0-9]+}};
    // CHECK: shfl.sync.down.b32 {{.*}}, 6175, %r{{[0-9]+}};
    // CHECK: shfl.sync.bfly.b32 {{.*}}, 7967, %r{{[0-9]+}};
    gpu.func @shuffle_32(%m: i32, %a: i32, %b: f32, %o: i32, %out: !llvm.ptr<1>) kernel {
      %0 = "simt.shuffle"(%m, %a, %o) {kind = "idx", width = 32} : (i32, i32, i32) -> i32
      %1 = "simt.shuffle"(%m, %b, %o) {kind = "up", width = 16} : (i32, f32, i32) -> f32
      %2 = "simt.shuffle"(%m, %a, %o) {kind = "down", width = 8} : (i32, i32, i32) -> i32
      %3 = "simt.shuffle"(%m, %b, %o) {kind = "xor", width = 1} : (i32, f32, i32) -> f32
      %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p2 = llvm.getelementptr %out[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p3 = llvm.getelementptr %out[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      llvm.store %0, %out : i32, !llvm.ptr<1>
      llvm.store %1, %p1 : f32, !llvm.ptr<1>
      llvm.store %2, %p2 : i32, !llvm.ptr<1>
      llvm.store %3, %p3 : f32, !llvm.ptr<1>
      gpu.return
    }

    // A 64-bit value moves as two 32-bit shuffles from the same lane.
    // NVVM-LABEL: gpu.func @shuffle_64(
    // NVVM: arith.bitcast %{{.*}} : f64 to i64
    // NVVM-COUNT-2: nvvm.shfl.sync bfly
    // NVVM: arith.bitcast %{{.*}} : i64 to f64
    // CHECK-LABEL: .entry shuffle_64(
    // CHECK-COUNT-2: shfl.sync.bfly.b32
    // CHECK: shfl.sync.idx.b32
    // CHECK: shfl.sync.idx.b32
    gpu.func @shuffle_64(%m: i32, %c: i64, %d: f64, %o: i32, %out: !llvm.ptr<1>) kernel {
      %0 = "simt.shuffle"(%m, %d, %o) {kind = "xor", width = 32} : (i32, f64, i32) -> f64
      %1 = "simt.shuffle"(%m, %c, %o) {kind = "idx", width = 32} : (i32, i64, i32) -> i64
      %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
      llvm.store %0, %out : f64, !llvm.ptr<1>
      llvm.store %1, %p1 : i64, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: .entry votes(
    // CHECK: vote.sync.all.pred
    // CHECK: vote.sync.any.pred
    // CHECK: vote.sync.ballot.b32
    gpu.func @votes(%m: i32, %v: i32, %out: !llvm.ptr<1>) kernel {
      %zero = arith.constant 0 : i32
      %p = arith.cmpi ne, %v, %zero : i32
      %all = "simt.vote"(%m, %p) {kind = "all"} : (i32, i1) -> i1
      %any = "simt.vote"(%m, %p) {kind = "any"} : (i32, i1) -> i1
      %bits = "simt.ballot"(%m, %p) : (i32, i1) -> i32
      %a = arith.extui %all : i1 to i32
      %b = arith.extui %any : i1 to i32
      %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p2 = llvm.getelementptr %out[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      llvm.store %a, %out : i32, !llvm.ptr<1>
      llvm.store %b, %p1 : i32, !llvm.ptr<1>
      llvm.store %bits, %p2 : i32, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: .entry matches(
    // CHECK: match.any.sync.b32
    // CHECK: match.any.sync.b64
    // CHECK: match.all.sync.b32 %r{{[0-9]+}}|%p{{[0-9]+}}
    // CHECK: match.all.sync.b64 %r{{[0-9]+}}|%p{{[0-9]+}}
    gpu.func @matches(%m: i32, %a: i32, %c: i64, %out: !llvm.ptr<1>) kernel {
      %0 = "simt.match_any"(%m, %a) : (i32, i32) -> i32
      %1 = "simt.match_any"(%m, %c) : (i32, i64) -> i32
      %l2, %e2 = "simt.match_all"(%m, %a) : (i32, i32) -> (i32, i1)
      %l3, %e3 = "simt.match_all"(%m, %c) : (i32, i64) -> (i32, i1)
      %sel2 = arith.select %e2, %l2, %a : i32
      %sel3 = arith.select %e3, %l3, %a : i32
      %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p2 = llvm.getelementptr %out[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p3 = llvm.getelementptr %out[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      llvm.store %0, %out : i32, !llvm.ptr<1>
      llvm.store %1, %p1 : i32, !llvm.ptr<1>
      llvm.store %sel2, %p2 : i32, !llvm.ptr<1>
      llvm.store %sel3, %p3 : i32, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: .entry reductions(
    // CHECK: redux.sync.add.s32
    // CHECK: redux.sync.min.s32
    // CHECK: redux.sync.max.s32
    // CHECK: redux.sync.min.u32
    // CHECK: redux.sync.max.u32
    // CHECK: redux.sync.and.b32
    // CHECK: redux.sync.or.b32
    // CHECK: redux.sync.xor.b32
    gpu.func @reductions(%m: i32, %a: i32, %out: !llvm.ptr<1>) kernel {
      %0 = "simt.redux"(%m, %a) {kind = "add"} : (i32, i32) -> i32
      %1 = "simt.redux"(%m, %a) {kind = "min"} : (i32, i32) -> i32
      %2 = "simt.redux"(%m, %a) {kind = "max"} : (i32, i32) -> i32
      %3 = "simt.redux"(%m, %a) {kind = "umin"} : (i32, i32) -> i32
      %4 = "simt.redux"(%m, %a) {kind = "umax"} : (i32, i32) -> i32
      %5 = "simt.redux"(%m, %a) {kind = "and"} : (i32, i32) -> i32
      %6 = "simt.redux"(%m, %a) {kind = "or"} : (i32, i32) -> i32
      %7 = "simt.redux"(%m, %a) {kind = "xor"} : (i32, i32) -> i32
      %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p2 = llvm.getelementptr %out[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p3 = llvm.getelementptr %out[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p4 = llvm.getelementptr %out[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p5 = llvm.getelementptr %out[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p6 = llvm.getelementptr %out[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p7 = llvm.getelementptr %out[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      llvm.store %0, %out : i32, !llvm.ptr<1>
      llvm.store %1, %p1 : i32, !llvm.ptr<1>
      llvm.store %2, %p2 : i32, !llvm.ptr<1>
      llvm.store %3, %p3 : i32, !llvm.ptr<1>
      llvm.store %4, %p4 : i32, !llvm.ptr<1>
      llvm.store %5, %p5 : i32, !llvm.ptr<1>
      llvm.store %6, %p6 : i32, !llvm.ptr<1>
      llvm.store %7, %p7 : i32, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: .entry leader(
    // CHECK: activemask.b32 %r{{[0-9]+}};
    // CHECK: elect.sync %r{{[0-9]+}}|%p{{[0-9]+}}, %r{{[0-9]+}};
    gpu.func @leader(%m: i32, %out: !llvm.ptr<1>) kernel {
      %active = "simt.active_mask"() : () -> i32
      %lane, %elected = "simt.elect"(%m) : (i32) -> (i32, i1)
      %e = arith.extui %elected : i1 to i32
      %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      %p2 = llvm.getelementptr %out[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
      llvm.store %active, %out : i32, !llvm.ptr<1>
      llvm.store %lane, %p1 : i32, !llvm.ptr<1>
      llvm.store %e, %p2 : i32, !llvm.ptr<1>
      gpu.return
    }
  }
}
