// REQUIRES: ptxas
// Every simt lowering test's PTX assembles for sm_90.
// RUN: %oxide-opt %S/indexing.mlir --emit=ptx -o %t.indexing.ptx && ptxas -arch=sm_90 %t.indexing.ptx -o %t.indexing.cubin
// RUN: %oxide-opt %S/memory.mlir --emit=ptx -o %t.memory.ptx && ptxas -arch=sm_90 %t.memory.ptx -o %t.memory.cubin
// RUN: %oxide-opt %S/shared.mlir --emit=ptx -o %t.shared.ptx && ptxas -arch=sm_90 %t.shared.ptx -o %t.shared.cubin
// RUN: %oxide-opt %S/kernel.mlir --emit=ptx -o %t.kernel.ptx && ptxas -arch=sm_90 %t.kernel.ptx -o %t.kernel.cubin
