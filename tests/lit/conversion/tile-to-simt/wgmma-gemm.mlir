// The GEMM K loop on sm_90a (docs/tile-hopper.md): bf16 64x64x64 tiles, 4 warps (one warpgroup). The kernel
// gains two tensor-map parameters after the contract's ABI, described by `tile.tma` (the tile parameter, the
// box, the swizzle) and takes its ring of 4 stages of 16 KiB as dynamic shared memory (`tile.dynamic_shared`,
// 1024-byte aligned); thread 0 initialises a full and an empty mbarrier per stage and fills every stage; each
// K iteration waits for its stage, runs four wgmma m64n64k16 (B MN-major through the transpose bit), keeps
// them in flight (wait_group 1), and releases the previous iteration's stage (one arrival per warp), which
// thread 0 refills. `tile.variants` lists the launch-time variants: this entry, the K-major B entry
// `gemm$kmajor_b` (B's tensor map describes the transposed memory; wgmma without the transpose bit), then the
// mma.sync sibling `gemm$mma_sync` (the plain ABI), which the runtime launches for tensors TMA cannot describe. The same kernel
// on sm_80 keeps mma.sync and the plain ABI, with no sibling.
// The CHECK lines follow the inline pipeline shape (thread 0 fills the ring between its MMAs); SPEC checks that
// the default is the warp-specialized, persistent kernel (docs/tile-hopper.md).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a specialize=off})' | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s --check-prefix=SPEC
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_80})' | FileCheck %s --check-prefix=SM80

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @gemm
    // SPEC: block = array<i32: 256, 1, 1>
    // SPEC: scf.if
    // SPEC: "simt.grid_dim"
    // SPEC: scf.for
    // SPEC: "simt.wgmma_mma_async"
    // SPEC: "simt.tma_store"
    // SPEC: } else {
    // SPEC: "simt.grid_dim"
    // SPEC: scf.for
    // SPEC: "simt.tma_load"
    // CHECK-SAME: %arg14: i64, %arg15: !simt.tensor_map, %arg16: !simt.tensor_map) kernel
    // CHECK-SAME: tile.dynamic_shared = 65536 : i64, tile.tma = [{box = array<i64: 64, 64>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 64, 64>, param = 2 : i64, swizzle = "128B"}]
    // CHECK-SAME: tile.variants = [{entry = "gemm", tma_params = array<i64: 1, 2>}, {entry = "gemm$kmajor_b", tma_params = array<i64: 1, 2>}, {entry = "gemm$mma_sync", tma_params = array<i64>}]
    // SM80-LABEL: gpu.func @gemm
    // SM80-NOT: tensor_map
    // SM80: nvvm.mma.sync
    // SM80-NOT: wgmma
    // SM80-NOT: gpu.func
    gpu.func @gemm(%c: !tile.view_mut<f32, array<i64: 64, 64>>, %a: !tile.view<bf16, array<i64: -1, -1>>, %b: !tile.view<bf16, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bm = "tile.block_id"() {axis = "x"} : () -> i32
      %bn = "tile.block_id"() {axis = "y"} : () -> i32
      %pa = "tile.make_partition"(%a) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 64, 64>>
      %pb = "tile.make_partition"(%b) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 64, 64>>
      %nk = "tile.num_tiles"(%pa) {axis = 1 : i64} : (!tile.partition<bf16, array<i64: 64, 64>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: "simt.dynamic_shared"({{.*}}) {align = 1024 : i64} : (index) -> !simt.ptr<bf16, 3 : i64>
      // CHECK: "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<i64, 8 : i64>
      // CHECK-COUNT-8: "simt.mbarrier_init"
      // CHECK: "simt.fence_proxy_async"() {space = "shared_cta"}
      // CHECK: simt.sync_threads
      // CHECK-COUNT-4: "simt.mbarrier_arrive_expect_tx"
      // CHECK: scf.for {{.*}} -> (f32, f32, f32, f32,
      // CHECK: "simt.mbarrier_wait_parity"
      // CHECK: "simt.wgmma_fence"
      // CHECK: "simt.smem_desc"({{.*}}) {base_offset = 0 : i64, leading_byte_offset = 16 : i64, stride_byte_offset = 1024 : i64, swizzle = "128B"}
      // CHECK: "simt.smem_desc"({{.*}}) {base_offset = 0 : i64, leading_byte_offset = 8192 : i64, stride_byte_offset = 1024 : i64, swizzle = "128B"}
      // CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "bf16", k = 16 : i64, m = 64 : i64, n = 64 : i64, negate_a = false, negate_b = false, scale_d = "accumulate", transpose_a = false, transpose_b = true}
      // CHECK-COUNT-3: "simt.wgmma_mma_async"
      // CHECK: "simt.wgmma_commit_group"
      // CHECK: "simt.wgmma_wait_group"() {pending = 1 : i64}
      // CHECK: "simt.mbarrier_arrive"
      // CHECK: "simt.mbarrier_wait_parity"
      // CHECK: "simt.mbarrier_arrive_expect_tx"
      // CHECK-COUNT-2: "simt.tma_load"
      // CHECK: scf.yield
      // CHECK: "simt.wgmma_wait_group"() {pending = 0 : i64}
      // CHECK-NOT: nvvm.mma.sync
      // CHECK-NOT: ldmatrix
      // CHECK-LABEL: gpu.func @gemm$kmajor_b
      // CHECK-SAME: tile.tma = [{box = array<i64: 64, 64>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 64, 64>, param = 2 : i64, swizzle = "128B", transposed}]
      // CHECK: "simt.smem_desc"({{.*}}) {base_offset = 0 : i64, leading_byte_offset = 16 : i64, stride_byte_offset = 1024 : i64, swizzle = "128B"}
      // CHECK: "simt.smem_desc"({{.*}}) {base_offset = 0 : i64, leading_byte_offset = 16 : i64, stride_byte_offset = 1024 : i64, swizzle = "128B"}
      // CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "bf16", k = 16 : i64, m = 64 : i64, n = 64 : i64, negate_a = false, negate_b = false, scale_d = "accumulate", transpose_a = false, transpose_b = false}
      // CHECK-LABEL: gpu.func @gemm$mma_sync
      // CHECK-SAME: %arg14: i64) kernel
      // CHECK-NOT: tile.tma
      // CHECK-NOT: wgmma
      // CHECK: nvvm.mma.sync
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> (tensor<64x64xf32>) : i32 {
        %ta = "tile.load"(%pa, %bm, %k) : (!tile.partition<bf16, array<i64: 64, 64>>, i32, i32) -> tensor<64x64xbf16>
        %tb = "tile.load"(%pb, %k, %bn) : (!tile.partition<bf16, array<i64: 64, 64>>, i32, i32) -> tensor<64x64xbf16>
        %r = "tile.mma"(%ta, %tb, %acc0) : (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %r : tensor<64x64xf32>
      }
      "tile.store_own"(%c, %acc) : (!tile.view_mut<f32, array<i64: 64, 64>>, tensor<64x64xf32>) -> ()
      gpu.return
    }
  }
}
