// REQUIRES: ptxas
// The masked accesses' PTX assembles for sm_80 and sm_90a.
// RUN: %oxide-opt %S/masked.mlir --emit=ptx --chip=sm_80 -o %t.80.ptx
// RUN: ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: %oxide-opt %S/masked.mlir --emit=ptx --chip=sm_90a -o %t.90a.ptx
// RUN: ptxas -arch=sm_90a %t.90a.ptx -o %t.90a.cubin
