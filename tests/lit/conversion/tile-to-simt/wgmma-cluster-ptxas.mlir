// REQUIRES: ptxas
// The clustered sm_90a GEMM (wgmma-cluster.mlir) assembles for sm_90a with every cluster shape's multicast
// copies and remote arrives: 2x1 (B shared), 1x2 (A shared), 2x2 (both).
// RUN: %oxide-opt %S/wgmma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a cluster=2x1})' --emit=ptx --chip sm_90a -o %t.21.ptx
// RUN: ptxas -arch=sm_90a %t.21.ptx -o %t.21.cubin
// RUN: %oxide-opt %S/wgmma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a cluster=1x2})' --emit=ptx --chip sm_90a -o %t.12.ptx
// RUN: ptxas -arch=sm_90a %t.12.ptx -o %t.12.cubin
// RUN: %oxide-opt %S/wgmma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a cluster=2x2})' --emit=ptx --chip sm_90a -o %t.22.ptx
// RUN: ptxas -arch=sm_90a %t.22.ptx -o %t.22.cubin
// RUN: FileCheck %s < %t.22.ptx

// 2x2: A and B each go to two blocks.
// CHECK-LABEL: .entry gemm(
// CHECK-COUNT-2: complete_tx::bytes.multicast::cluster
