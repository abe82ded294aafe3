// REQUIRES: ptxas
// The PTX of every tile lowering test assembles for sm_90.
// RUN: %oxide-opt %S/lower-memory.mlir --pass-pipeline='builtin.module(convert-tile-to-simt)' --emit=ptx -o %t.memory.ptx
// RUN: ptxas -arch=sm_90 %t.memory.ptx -o %t.memory.cubin
// RUN: %oxide-opt %S/lower-reduce.mlir --pass-pipeline='builtin.module(convert-tile-to-simt)' --emit=ptx -o %t.reduce.ptx
// RUN: ptxas -arch=sm_90 %t.reduce.ptx -o %t.reduce.cubin
// RUN: %oxide-opt %S/lower-control.mlir --pass-pipeline='builtin.module(convert-tile-to-simt)' --emit=ptx -o %t.control.ptx
// RUN: ptxas -arch=sm_90 %t.control.ptx -o %t.control.cubin
// RUN: %oxide-opt %S/lower-shape.mlir --pass-pipeline='builtin.module(convert-tile-to-simt)' --emit=ptx -o %t.shape.ptx
// RUN: ptxas -arch=sm_90 %t.shape.ptx -o %t.shape.cubin
// The vector path is real 128-bit memory traffic, and the reductions are shfl.sync.bfly.
// RUN: FileCheck %s --check-prefix=MEMORY < %t.memory.ptx
// MEMORY: ld.global.nc.v4.b32
// MEMORY: st.global.v4.b32
// RUN: FileCheck %s --check-prefix=REDUCE < %t.reduce.ptx
// REDUCE: shfl.sync.bfly.b32
// The named pipeline tile-to-ptx does the same in one go.
// RUN: %oxide-opt %S/lower-reduce.mlir --pass-pipeline='builtin.module(tile-to-ptx)' | FileCheck %s --check-prefix=NAMED
// NAMED: gpu.binary @kernels
// NAMED-SAME: shfl.sync.bfly.b32
