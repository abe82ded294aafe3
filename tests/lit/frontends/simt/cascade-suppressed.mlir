// `thread::index_1d_u32()` without the launch contract it needs: one error, at the call; the uses of the
// witness it would have made (`get_mut(idx)`, the store through `o`) report nothing more (they said
// "internal error: no lowered form for a value of type ..."). tests/unit/tools/test_exit_status.py checks the
// exit status.
// RUN: not %oxide-opt %S/Inputs/witness_without_contract.rs --emit=ptx 2> %t.err
// RUN: FileCheck %s < %t.err
// CHECK: witness_without_contract.rs:4:15: error: index_1d_u32 needs the kernel's launch contract
// CHECK-NOT: error:
