// REQUIRES: ptxas
// The batched sm_90a GEMM lowering (wgmma-batched.mlir) assembles for sm_90a: rank-3 TMA box copies (the batch
// the outermost coordinate) completing on mbarriers, wgmma m64n64k16, and rank-3 TMA stores of the epilogue.
// RUN: %oxide-opt %S/wgmma-batched.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' --emit=ptx --chip sm_90a -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=TMA < %t.ptx

// CHECK-LABEL: .entry bmm(
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group
// TMA: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA-NOT: cp.async.bulk.tensor.2d
