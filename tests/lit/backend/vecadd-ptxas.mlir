// REQUIRES: ptxas
// ptxas accepts the PTX of the vecadd kernel and of a libdevice-using kernel.
// RUN: %oxide-opt %S/Inputs/vecadd.mlir --emit=ptx -o %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %oxide-opt %S/Inputs/exp.mlir --emit=ptx -o %t.exp.ptx
// RUN: ptxas -arch=sm_90 %t.exp.ptx -o %t.exp.cubin
// RUN: %oxide build %S/Inputs/vecadd.mlir -o %t.build.ptx | FileCheck %s --check-prefix=BUILD
// RUN: ptxas -arch=sm_90 %t.build.ptx -o %t.build.cubin
// BUILD: wrote {{.*}}.build.ptx (sm_90, gpu.module @kernels)
