// The flash-attention loop of examples/tile/attention.rs (BM = 128, BN = 64, D = 64, 8 warps) on sm_90a
// (docs/tile-attention.md, "K and V by TMA", "The producer warpgroup", "The pipelined step"): q, k and v are
// loaded by TMA, so the kernel gains three tensor-map parameters after the contract's ABI (`tile.tma`: 4-D boxes
// of one swizzle row of BM or BN rows of one (batch, head)), and a producer warpgroup beside its 8 warps (a
// block of 384 threads, one block per SM for setmaxnreg). Thread 0 initialises full_k, full_v (one arrival) and
// empty (one per consumer warp) for each of the four stages and q's barrier; after the one block barrier the
// block splits. The consumers take 240 registers, wait for q and run the software-pipelined loop: each iteration
// waits for its k and issues the four scores MMAs, waits for the previous step's v and issues the four values
// MMAs of the previous step (p from registers, carried by the loop: no p buffer, no fence, no block barrier
// before them), commits each, and issues no copy; the scores are waited for with one group (the values) in
// flight; after the softmax the values are waited for and every warp releases the previous step's stage. After
// the loop the last step's values MMAs run and are waited for. The two consumer warpgroups take turns issuing
// their MMAs (ping-pong): warpgroup 1 arrives on warpgroup 0's named barrier (2) before the loop; in each step
// a warpgroup waits at its own (2 or 3) before its MMAs and arrives on the other's after committing them
// (warpgroup 1 not in the last step). The producer warpgroup keeps 24 registers; its
// first thread copies q, then per step waits (from the fifth step on) for the stage's `empty` and copies the
// step's k and v. On sm_90 the loop keeps mma.sync and the plain ABI. (At D = BN = 64 the default, specialize=auto,
// keeps two unspecialized blocks per SM instead, with thread 0 refilling the ring: the AUTO run.)
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a specialize=on})' | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s --check-prefix=AUTO
// AUTO: simt.contract = {block = array<i32: 256, 1, 1>
// AUTO-NOT: "simt.setmaxnreg"
// The key mask is built in the scores' accumulator layout (tile_to_simt/rematerialise.py) and p stays in
// registers, so the loop has no block barrier:
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s --check-prefix=LOOP
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90})' | FileCheck %s --check-prefix=SM90

// CHECK-LABEL: gpu.func @attention_128_64_64
// CHECK-SAME: %arg35: !simt.tensor_map, %arg36: !simt.tensor_map, %arg37: !simt.tensor_map) kernel
// CHECK-SAME: simt.contract = {block = array<i32: 384, 1, 1>
// CHECK-SAME: simt.launch_bounds = array<i32: 384, 1>
// CHECK-SAME: tile.tma = [{box = array<i64: 1, 1, 128, 64>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 1, 1, 64, 64>, param = 2 : i64, swizzle = "128B"}, {box = array<i64: 1, 1, 64, 64>, param = 3 : i64, swizzle = "128B"}]
// CHECK-COUNT-13: "simt.mbarrier_init"
// CHECK: "simt.sync_threads"
// CHECK-NOT: "simt.sync_threads"
// CHECK: "simt.setmaxnreg"() {action = "inc", regs = 240 : i64}
// CHECK-NOT: "simt.tma_load"
// CHECK: "simt.mbarrier_wait_parity"
// CHECK: "simt.named_barrier_arrive"() {id = 2 : i64, threads = 256 : i64}
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, {{.*}}, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
// CHECK: "simt.mbarrier_wait_parity"
// CHECK: "simt.named_barrier"() {id = 2 : i64, threads = 256 : i64}
// CHECK: "simt.named_barrier"() {id = 3 : i64, threads = 256 : i64}
// CHECK: "simt.wgmma_fence"
// CHECK-COUNT-4: "simt.wgmma_mma_async"(
// CHECK: "simt.wgmma_commit_group"
// CHECK: "simt.mbarrier_wait_parity"
// CHECK-NOT: "simt.fence_proxy_async"
// CHECK: "simt.wgmma_fence"
// CHECK-COUNT-4: "simt.wgmma_mma_async_reg_a"
// CHECK: "simt.wgmma_commit_group"
// CHECK-NOT: "simt.mbarrier_wait_parity"
// CHECK: "simt.named_barrier_arrive"() {id = 3 : i64, threads = 256 : i64}
// CHECK: "simt.named_barrier_arrive"() {id = 2 : i64, threads = 256 : i64}
// CHECK: "simt.wgmma_wait_group"() {pending = 1 : i64}
// CHECK-NOT: "simt.mbarrier_wait_parity"
// CHECK: "simt.wgmma_wait_group"() {pending = 0 : i64}
// CHECK: "simt.mbarrier_arrive"
// CHECK-NOT: "simt.mbarrier_wait_parity"
// CHECK-NOT: "simt.wgmma
// CHECK: scf.yield
// CHECK: "simt.mbarrier_wait_parity"
// CHECK: "simt.wgmma_fence"
// CHECK-COUNT-4: "simt.wgmma_mma_async_reg_a"
// CHECK: "simt.wgmma_commit_group"
// CHECK: "simt.wgmma_wait_group"() {pending = 0 : i64}
// CHECK-NOT: "simt.tma_load"
// CHECK: } else {
// CHECK: "simt.setmaxnreg"() {action = "dec", regs = 24 : i64}
// CHECK: "simt.mbarrier_arrive_expect_tx"(%{{.*}}, %c16384_i32)
// CHECK: "simt.tma_load"(%{{.*}}, %arg35,
// CHECK: scf.for
// CHECK: "simt.mbarrier_wait_parity"
// CHECK: "simt.mbarrier_arrive_expect_tx"(%{{.*}}, %c8192_i32)
// CHECK: "simt.tma_load"(%{{.*}}, %arg36,
// CHECK: "simt.mbarrier_arrive_expect_tx"(%{{.*}}, %c8192_i32)
// CHECK: "simt.tma_load"(%{{.*}}, %arg37,
// CHECK: gpu.return
// CHECK-NOT: "tile.

// LOOP: scf.for
// LOOP-NOT: "simt.sync_threads"
// LOOP: scf.yield

// SM90-LABEL: gpu.func @attention_128_64_64
// SM90-NOT: !simt.tensor_map
// SM90-NOT: "simt.tma_load"
// SM90: nvvm.mma.sync

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @attention_128_64_64(%arg0: !tile.view_mut<bf16, array<i64: 1, 128, 64>>, %arg1: !tile.view<bf16, array<i64: -1, -1, -1, -1>>, %arg2: !tile.view<bf16, array<i64: -1, -1, -1, -1>>, %arg3: !tile.view<bf16, array<i64: -1, -1, -1, -1>>, %arg4: f32) kernel attributes {tile.warps = 8 : i32} {
      %0 = "tile.block_id"() {axis = "x"} : () -> i32
      %1 = "tile.block_id"() {axis = "y"} : () -> i32
      %2 = "tile.dim"(%arg1) {axis = 1 : i64} : (!tile.view<bf16, array<i64: -1, -1, -1, -1>>) -> i32
      %3 = arith.divsi %0, %2 : i32
      %4 = arith.remsi %0, %2 : i32
      %5 = "tile.dim"(%arg2) {axis = 2 : i64} : (!tile.view<bf16, array<i64: -1, -1, -1, -1>>) -> i32
      %6 = "tile.make_partition"(%arg1) : (!tile.view<bf16, array<i64: -1, -1, -1, -1>>) -> !tile.partition<bf16, array<i64: 1, 1, 128, 64>>
      %c0_i32 = arith.constant 0 : i32
      %7 = "tile.load"(%6, %3, %4, %1, %c0_i32) : (!tile.partition<bf16, array<i64: 1, 1, 128, 64>>, i32, i32, i32, i32) -> tensor<1x1x128x64xbf16>
      %8 = "tile.reshape"(%7) : (tensor<1x1x128x64xbf16>) -> tensor<128x64xbf16>
      %9 = "tile.make_partition"(%arg2) : (!tile.view<bf16, array<i64: -1, -1, -1, -1>>) -> !tile.partition<bf16, array<i64: 1, 1, 64, 64>>
      %10 = "tile.make_partition"(%arg3) : (!tile.view<bf16, array<i64: -1, -1, -1, -1>>) -> !tile.partition<bf16, array<i64: 1, 1, 64, 64>>
      %11 = "tile.splat"(%arg4) : (f32) -> tensor<128x64xf32>
      %cst = arith.constant dense<0xFF800000> : tensor<128x64xf32>
      %cst_0 = arith.constant dense<0xFF800000> : tensor<128x1xf32>
      %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x1xf32>
      %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
      %c0_i32_3 = arith.constant 0 : i32
      %c64_i32 = arith.constant 64 : i32
      %c1_i32 = arith.constant 1 : i32
      %12 = arith.addi %5, %c64_i32 : i32
      %13 = arith.subi %12, %c1_i32 : i32
      %14 = arith.divsi %13, %c64_i32 : i32
      %c1_i32_4 = arith.constant 1 : i32
      %15:3 = scf.for %arg5 = %c0_i32_3 to %14 step %c1_i32_4 iter_args(%arg6 = %cst_1, %arg7 = %cst_2, %arg8 = %cst_0) -> (tensor<128x1xf32>, tensor<128x64xf32>, tensor<128x1xf32>)  : i32 {
        %c0_i32_5 = arith.constant 0 : i32
        %20 = "tile.load"(%9, %3, %4, %arg5, %c0_i32_5) : (!tile.partition<bf16, array<i64: 1, 1, 64, 64>>, i32, i32, i32, i32) -> tensor<1x1x64x64xbf16>
        %21 = "tile.reshape"(%20) : (tensor<1x1x64x64xbf16>) -> tensor<64x64xbf16>
        %22 = "tile.permute"(%21) {perm = array<i64: 1, 0>} : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
        %cst_6 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
        %23 = "tile.mma"(%8, %22, %cst_6) : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        %24 = arith.mulf %23, %11 : tensor<128x64xf32>
        %c64_i32_7 = arith.constant 64 : i32
        %25 = arith.muli %arg5, %c64_i32_7 : i32
        %26 = "tile.iota"() : () -> tensor<64xi32>
        %27 = "tile.reshape"(%26) : (tensor<64xi32>) -> tensor<1x64xi32>
        %28 = "tile.broadcast"(%27) : (tensor<1x64xi32>) -> tensor<128x64xi32>
        %29 = arith.subi %5, %25 : i32
        %30 = "tile.splat"(%29) : (i32) -> tensor<128x64xi32>
        %31 = arith.cmpi slt, %28, %30 : tensor<128x64xi32>
        %32 = arith.select %31, %24, %cst : tensor<128x64xi1>, tensor<128x64xf32>
        %33 = "tile.reduce"(%32) {dim = 1 : i64, kind = "max", unsigned = false} : (tensor<128x64xf32>) -> tensor<128xf32>
        %34 = "tile.reshape"(%33) : (tensor<128xf32>) -> tensor<128x1xf32>
        %35 = arith.maximumf %arg8, %34 : tensor<128x1xf32>
        %36 = "tile.broadcast"(%35) : (tensor<128x1xf32>) -> tensor<128x64xf32>
        %37 = arith.subf %32, %36 : tensor<128x64xf32>
        %38 = math.exp2 %37 : tensor<128x64xf32>
        %39 = arith.subf %arg8, %35 : tensor<128x1xf32>
        %40 = math.exp2 %39 : tensor<128x1xf32>
        %41 = arith.mulf %arg6, %40 : tensor<128x1xf32>
        %42 = "tile.reduce"(%38) {dim = 1 : i64, kind = "sum", unsigned = false} : (tensor<128x64xf32>) -> tensor<128xf32>
        %43 = "tile.reshape"(%42) : (tensor<128xf32>) -> tensor<128x1xf32>
        %44 = arith.addf %41, %43 : tensor<128x1xf32>
        %c0_i32_8 = arith.constant 0 : i32
        %45 = "tile.load"(%10, %3, %4, %arg5, %c0_i32_8) : (!tile.partition<bf16, array<i64: 1, 1, 64, 64>>, i32, i32, i32, i32) -> tensor<1x1x64x64xbf16>
        %46 = "tile.reshape"(%45) : (tensor<1x1x64x64xbf16>) -> tensor<64x64xbf16>
        %47 = arith.truncf %38 : tensor<128x64xf32> to tensor<128x64xbf16>
        %48 = "tile.broadcast"(%40) : (tensor<128x1xf32>) -> tensor<128x64xf32>
        %49 = arith.mulf %arg7, %48 : tensor<128x64xf32>
        %50 = "tile.mma"(%47, %46, %49) : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %44, %50, %35 : tensor<128x1xf32>, tensor<128x64xf32>, tensor<128x1xf32>
      }
      %16 = "tile.broadcast"(%15#0) : (tensor<128x1xf32>) -> tensor<128x64xf32>
      %17 = arith.divf %15#1, %16 : tensor<128x64xf32>
      %18 = arith.truncf %17 : tensor<128x64xf32> to tensor<128x64xbf16>
      %19 = "tile.reshape"(%18) : (tensor<128x64xbf16>) -> tensor<1x128x64xbf16>
      "tile.store_own"(%arg0, %19) : (!tile.view_mut<bf16, array<i64: 1, 128, 64>>, tensor<1x128x64xbf16>) -> ()
      gpu.return
    }
  }
}
