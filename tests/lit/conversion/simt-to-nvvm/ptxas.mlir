// REQUIRES: ptxas
// Every simt lowering test's PTX assembles for sm_90.
// RUN: %oxide-opt %S/indexing.mlir --emit=ptx -o %t.indexing.ptx && ptxas -arch=sm_90 %t.indexing.ptx -o %t.indexing.cubin
// RUN: %oxide-opt %S/memory.mlir --emit=ptx -o %t.memory.ptx && ptxas -arch=sm_90 %t.memory.ptx -o %t.memory.cubin
// RUN: %oxide-opt %S/shared.mlir --emit=ptx -o %t.shared.ptx && ptxas -arch=sm_90 %t.shared.ptx -o %t.shared.cubin
// RUN: %oxide-opt %S/kernel.mlir --emit=ptx -o %t.kernel.ptx && ptxas -arch=sm_90 %t.kernel.ptx -o %t.kernel.cubin
// The architecture-specific target sm_90a: the pipeline accepts it and ptxas assembles for it.
// RUN: %oxide-opt %S/memory.mlir --emit=ptx --chip=sm_90a -o %t.a.ptx && ptxas -arch=sm_90a %t.a.ptx -o %t.a.cubin
// RUN: FileCheck %s --check-prefix=SM90A < %t.a.ptx
// SM90A: .target sm_90a
