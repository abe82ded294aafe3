// Pipelines mix oxide passes (Python) with upstream ones, nested anchors and options included.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(oxide-verify,canonicalize{max-iterations=3},cse,gpu.module(canonicalize),oxide-verify)' | FileCheck %s
// A bare list means the same as builtin.module(...).
// RUN: %oxide-opt %s --pass-pipeline='oxide-verify, cse' | FileCheck %s --check-prefix=BARE
// Every pass, oxide's included, shows up in --mlir-print-ir-after-all.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(oxide-verify,cse)' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT

// canonicalize folds the constant add. Both loads stay: IRDL ops have no memory-effect interface on
// MLIR 22, so upstream cse must treat them as side-effecting (a later issue lowers simt before cse matters).
// CHECK-LABEL: func.func @f
// CHECK: %[[C:.*]] = arith.constant 3 : index
// CHECK: %[[X:.*]] = "simt.load"(%{{.*}}, %[[C]])
// CHECK: %[[Y:.*]] = "simt.load"(%{{.*}}, %[[C]])
// CHECK: arith.addf %[[X]], %[[Y]]
// BARE-LABEL: func.func @f
// BARE: arith.addi
// BARE-COUNT-2: "simt.load"
// PRINT: IR Dump After {{.*}}oxide-verify
// PRINT: IR Dump After {{.*}}CSE
func.func @f(%a: !simt.slice<f32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i = arith.addi %c1, %c2 : index
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> f32
  %y = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> f32
  %s = arith.addf %x, %y : f32
  return %s : f32
}

gpu.module @kernels {
}
