// REQUIRES: ptxas
// The PTX of the cluster and grid lowering test assembles for sm_90a.
// RUN: %oxide-opt %S/cluster.mlir --emit=ptx --chip=sm_90a -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin
