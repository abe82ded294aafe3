// tile.mma for each element type pair: f16 -> f32 and f16 -> f16 run mma.sync.m16n8k16 (f16 operands and
// accumulators as vector<2xf16> registers); tf32 (f32 tiles with `tile.tf32`) runs m16n8k8 with the inputs
// rounded by cvt.rna.tf32.f32 while they are staged; f32 is staged unrounded and each fragment register split
// after its load into hi = tf32(x) and lo = tf32(x - hi), three m16n8k8 per fragment (3xTF32). f32 B fragments
// come from scalar shared loads (ldmatrix moves 16-bit elements).
// An accumulator that does not arrive in the mma layout (here: loaded from global memory) is converted first.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @f16_f32
    // CHECK-COUNT-16: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    // CHECK-NOT: nvvm.mma.sync
    gpu.func @f16_f32(%c: !tile.view_mut<f32, array<i64: 64, 64>>, %a: !tile.view<f16, array<i64: 64, 32>>, %b: !tile.view<f16, array<i64: 32, 64>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f16, array<i64: 64, 32>>) -> !tile.partition<f16, array<i64: 64, 32>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f16, array<i64: 32, 64>>) -> !tile.partition<f16, array<i64: 32, 64>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f16, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xf16>
      %tb = "tile.load"(%pb, %c0, %c0) : (!tile.partition<f16, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf16>
      %acc = "tile.load_own"(%c) : (!tile.view_mut<f32, array<i64: 64, 64>>) -> tensor<64x64xf32>
      %r = "tile.mma"(%ta, %tb, %acc) : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 64, 64>>, tensor<64x64xf32>) -> ()
      gpu.return
    }

    // CHECK-LABEL: gpu.func @f16_f16
    // CHECK: vector.from_elements {{.*}} : vector<2xf16>
    // CHECK: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
    // CHECK: vector.extract {{.*}} from vector<2xf16>
    gpu.func @f16_f16(%c: !tile.view_mut<f16, array<i64: 32, 32>>, %a: !tile.view<f16, array<i64: 32, 16>>, %b: !tile.view<f16, array<i64: 16, 32>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f16, array<i64: 32, 16>>) -> !tile.partition<f16, array<i64: 32, 16>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f16, array<i64: 16, 32>>) -> !tile.partition<f16, array<i64: 16, 32>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f16, array<i64: 32, 16>>, i32, i32) -> tensor<32x16xf16>
      %tb = "tile.load"(%pb, %c0, %c0) : (!tile.partition<f16, array<i64: 16, 32>>, i32, i32) -> tensor<16x32xf16>
      %zero = arith.constant dense<0.0> : tensor<32x32xf16>
      %r = "tile.mma"(%ta, %tb, %zero) : (tensor<32x16xf16>, tensor<16x32xf16>, tensor<32x32xf16>) -> tensor<32x32xf16>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f16, array<i64: 32, 32>>, tensor<32x32xf16>) -> ()
      gpu.return
    }

    // CHECK-LABEL: gpu.func @tf32
    // CHECK: cvt.rna.tf32.f32
    // CHECK: simt.sync_threads
    // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
    // CHECK: "simt.ptr_load"({{.*}}) : (!simt.ptr<f32, 3 : i64>) -> f32
    // CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
    gpu.func @tf32(%c: !tile.view_mut<f32, array<i64: 64, 64>>, %a: !tile.view<f32, array<i64: 64, 32>>, %b: !tile.view<f32, array<i64: 32, 64>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f32, array<i64: 64, 32>>) -> !tile.partition<f32, array<i64: 64, 32>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f32, array<i64: 32, 64>>) -> !tile.partition<f32, array<i64: 32, 64>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f32, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xf32>
      %tb = "tile.load"(%pb, %c0, %c0) : (!tile.partition<f32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf32>
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %r = "tile.mma"(%ta, %tb, %zero) {tile.tf32} : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 64, 64>>, tensor<64x64xf32>) -> ()
      gpu.return
    }

    // CHECK-LABEL: gpu.func @f32
    // CHECK-NOT: cvt.rna.tf32.f32
    // CHECK: simt.sync_threads
    // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
    // CHECK: cvt.rna.tf32.f32
    // CHECK: arith.subf
    // CHECK: cvt.rna.tf32.f32
    // CHECK: "simt.ptr_load"({{.*}}) : (!simt.ptr<f32, 3 : i64>) -> f32
    // CHECK-COUNT-3: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
    gpu.func @f32(%c: !tile.view_mut<f32, array<i64: 64, 64>>, %a: !tile.view<f32, array<i64: 64, 32>>, %b: !tile.view<f32, array<i64: 32, 64>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f32, array<i64: 64, 32>>) -> !tile.partition<f32, array<i64: 64, 32>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f32, array<i64: 32, 64>>) -> !tile.partition<f32, array<i64: 32, 64>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f32, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xf32>
      %tb = "tile.load"(%pb, %c0, %c0) : (!tile.partition<f32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf32>
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %r = "tile.mma"(%ta, %tb, %zero) : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 64, 64>>, tensor<64x64xf32>) -> ()
      gpu.return
    }
  }
}
