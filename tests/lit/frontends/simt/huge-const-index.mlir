// A `const` at usize::MAX in a shared-memory index: the race analysis sums it without overflowing (it was an
// internal error in 'oxide-verify-aliasing'), and the kernel compiles to PTX that ptxas accepts.
// RUN: %oxide-opt %S/Inputs/huge_const_in_shared_index.rs --emit=ptx -o %t.ptx 2>&1 | FileCheck %s
// RUN: ptxas -arch=sm_90 %t.ptx -o /dev/null
// CHECK-NOT: internal error
// CHECK-NOT: Traceback
