// REQUIRES: ptxas
// The math and debug lowering tests and the GPU tests' math/debug kernels assemble for sm_90.
// RUN: %oxide-opt %S/math.mlir --emit=ptx -o %t.math.ptx && ptxas -arch=sm_90 %t.math.ptx -o %t.math.cubin
// RUN: %oxide-opt %S/debug.mlir --emit=ptx -o %t.debug.ptx && ptxas -arch=sm_90 %t.debug.ptx -o %t.debug.cubin
// RUN: %oxide-opt %S/../../../gpu/kernels/math_debug.mlir --emit=ptx -o %t.gpu.ptx && ptxas -arch=sm_90 %t.gpu.ptx -o %t.gpu.cubin
