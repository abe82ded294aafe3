// REQUIRES: ptxas
// The sm_90a GEMM lowering (wgmma-gemm.mlir) assembles for sm_90a: TMA box copies completing on mbarriers,
// and wgmma m64n64k16 with a transposed B.
// RUN: %oxide-opt %S/wgmma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' --emit=ptx --chip sm_90a -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=TMA < %t.ptx

// CHECK-LABEL: .entry gemm(
// CHECK: .param .align 64 .b8 gemm_param_15[128]
// CHECK: mbarrier.init.shared.b64
// The producer warpgroup's copies: where LLVM places its branch relative to the consumers' is its choice.
// TMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: wgmma.fence.sync.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 1
// CHECK: wgmma.wait_group.sync.aligned 0
