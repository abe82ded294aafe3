// REQUIRES: ptxas
// ptxas accepts every scoped atomic the lowering emits (the lowering test and the GPU test kernels), for
// sm_90 and for sm_75, the oldest chip CUDA 13's ptxas assembles for.
// RUN: %oxide-opt %S/atomics.mlir --emit=ptx -o %t.atomics.ptx
// RUN: ptxas -arch=sm_90 %t.atomics.ptx -o %t.atomics.cubin
// RUN: %oxide-opt %S/atomics.mlir --emit=ptx --chip=sm_75 -o %t.sm75.ptx
// RUN: ptxas -arch=sm_75 %t.sm75.ptx -o %t.sm75.cubin
// RUN: %oxide-opt %S/../../../gpu/kernels/atomics.mlir --emit=ptx -o %t.kernels.ptx
// RUN: ptxas -arch=sm_90 %t.kernels.ptx -o %t.kernels.cubin
