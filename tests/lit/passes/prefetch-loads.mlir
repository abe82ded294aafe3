// tile-prefetch-loads: a loop's tile loads whose indices come from the induction variable and loop-invariant
// values are issued one iteration ahead (the first before the loop, the next at the top of each iteration,
// carried as loop arguments), so they overlap the iteration's compute.
// RUN: %oxide-opt %s --split-input-file --pass-pipeline='builtin.module(tile-prefetch-loads)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @gemm
    // CHECK: %[[C0:.*]] = arith.constant 0 : i32
    // CHECK: %[[C1:.*]] = arith.constant 1 : i32
    // CHECK: %[[A0:.*]] = "tile.load"(%{{.*}}, %{{.*}}, %[[C0]])
    // CHECK: %[[B0:.*]] = "tile.load"(%{{.*}}, %[[C0]], %{{.*}})
    // CHECK: scf.for %[[K:[^ ]+]] = %[[C0]] to %{{.*}} step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B0]])
    // CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[C1]] : i32
    // CHECK-NEXT: %[[AN:.*]] = "tile.load"(%{{.*}}, %{{.*}}, %[[NEXT]])
    // CHECK-NEXT: %[[BN:.*]] = "tile.load"(%{{.*}}, %[[NEXT]], %{{.*}})
    // CHECK-NEXT: %[[R:.*]] = "tile.mma"(%[[A]], %[[B]], %[[ACC]])
    // CHECK-NEXT: scf.yield %[[R]], %[[AN]], %[[BN]]
    gpu.func @gemm(%c: !tile.view_mut<f32, array<i64: 64, 64>>, %a: !tile.view<f16, array<i64: -1, -1>>, %b: !tile.view<f16, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bm = "tile.block_id"() {axis = "x"} : () -> i32
      %bn = "tile.block_id"() {axis = "y"} : () -> i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f16, array<i64: -1, -1>>) -> !tile.partition<f16, array<i64: 64, 32>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f16, array<i64: -1, -1>>) -> !tile.partition<f16, array<i64: 32, 64>>
      %nk = "tile.num_tiles"(%pa) {axis = 1 : i64} : (!tile.partition<f16, array<i64: 64, 32>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> (tensor<64x64xf32>) : i32 {
        %ta = "tile.load"(%pa, %bm, %k) : (!tile.partition<f16, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xf16>
        %tb = "tile.load"(%pb, %k, %bn) : (!tile.partition<f16, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf16>
        %r = "tile.mma"(%ta, %tb, %acc0) : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %r : tensor<64x64xf32>
      }
      "tile.store_own"(%c, %acc) : (!tile.view_mut<f32, array<i64: 64, 64>>, tensor<64x64xf32>) -> ()
      gpu.return
    }
  }
}

// -----

// An index computed by a pure op from the induction variable is computed again for the next iteration.
// An index carried by the loop (known only when the iteration runs) keeps its load where it is.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @indices
    // CHECK: %[[TWO:.*]] = arith.constant 2 : i32
    // CHECK: %[[I0:.*]] = arith.muli %{{.*}}, %[[TWO]] : i32
    // CHECK: "tile.load"(%{{.*}}, %[[I0]])
    // CHECK: scf.for %[[K:[^ ]+]] = {{.*}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %[[J:[^ ]+]] = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}})
    // CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]]
    // CHECK-NEXT: %[[IN:.*]] = arith.muli %[[NEXT]], %[[TWO]] : i32
    // CHECK-NEXT: "tile.load"(%{{.*}}, %[[IN]])
    // CHECK-NEXT: "tile.load"(%{{.*}}, %[[J]]) :
    // CHECK: scf.yield
    gpu.func @indices(%z: !tile.view_mut<f32, array<i64: 128>>, %x: !tile.view<f32, array<i64: -1>>) kernel attributes {tile.warps = 4 : i32} {
      %px = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 128>>
      %zero = arith.constant dense<0.0> : tensor<128xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %sum, %j = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %zero, %jj = %c0) -> (tensor<128xf32>, i32) : i32 {
        %i = arith.muli %k, %c2 : i32
        %t = "tile.load"(%px, %i) : (!tile.partition<f32, array<i64: 128>>, i32) -> tensor<128xf32>
        %u = "tile.load"(%px, %jj) : (!tile.partition<f32, array<i64: 128>>, i32) -> tensor<128xf32>
        %tu = arith.addf %t, %u : tensor<128xf32>
        %s2 = arith.addf %s, %tu : tensor<128xf32>
        %j2 = arith.addi %jj, %c1 : i32
        scf.yield %s2, %j2 : tensor<128xf32>, i32
      }
      "tile.store_own"(%z, %sum) : (!tile.view_mut<f32, array<i64: 128>>, tensor<128xf32>) -> ()
      gpu.return
    }
  }
}
