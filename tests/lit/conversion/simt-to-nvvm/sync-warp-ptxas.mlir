// REQUIRES: ptxas
// The PTX of the synchronisation and warp lowering tests assembles for sm_90.
// RUN: %oxide-opt %S/sync.mlir --emit=ptx -o %t.sync.ptx
// RUN: ptxas -arch=sm_90 %t.sync.ptx -o %t.sync.cubin
// RUN: %oxide-opt %S/warp.mlir --emit=ptx -o %t.warp.ptx
// RUN: ptxas -arch=sm_90 %t.warp.ptx -o %t.warp.cubin
