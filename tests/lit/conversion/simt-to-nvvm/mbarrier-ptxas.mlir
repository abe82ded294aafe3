// REQUIRES: ptxas
// The PTX of the mbarrier lowering tests assembles: Hopper's for sm_90a, the Ampere subset for sm_80.
// RUN: %oxide-opt %S/mbarrier.mlir --emit=ptx --chip=sm_90a -o %t.hopper.ptx
// RUN: ptxas -arch=sm_90a %t.hopper.ptx -o %t.hopper.cubin
// RUN: %oxide-opt %S/mbarrier-ampere.mlir --emit=ptx --chip=sm_80 -o %t.ampere.ptx
// RUN: ptxas -arch=sm_80 %t.ampere.ptx -o %t.ampere.cubin
