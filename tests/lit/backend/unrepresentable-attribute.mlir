// An attribute the bindings cannot represent (array<si8>) on a function: the pre-lowering checks read its text.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// CHECK: .entry bounds

gpu.module @k {
  gpu.func @bounds() kernel attributes {gpu.func = array<si8>} {
    gpu.return
  }
}
