// An scf.if that yields simt values (a slice chosen by a branch) becomes one yielding their parts: its yields are
// simt values leaving a non-simt op, but the lowering rebuilds them, so they are no error. A loop that carries
// a simt value is one, reported at the loop and its yield.
// RUN: not %oxide-opt %s --split-input-file --pass-pipeline='builtin.module(convert-simt-to-nvvm)' > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @pick(
    // CHECK: scf.if %{{.*}} -> (!llvm.ptr<1>, i64)
    // CHECK: scf.yield %{{.*}}, %{{.*}} : !llvm.ptr<1>, i64
    gpu.func @pick(%a: !simt.slice<f32>, %b: !simt.slice<f32>, %c: i1, %i: index) kernel {
      %s = scf.if %c -> (!simt.slice<f32>) {
        scf.yield %a : !simt.slice<f32>
      } else {
        scf.yield %b : !simt.slice<f32>
      }
      %x = "simt.load"(%s, %i) : (!simt.slice<f32>, index) -> f32
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @carry(%a: !simt.slice<f32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // ERR: split-if.mlir:[[# @LINE + 3]]:9: error: 'scf.yield' cannot take or produce a value of type !simt.slice<f32>; only simt ops may use it
      // ERR: split-if.mlir:[[# @LINE + 1]]:12: error: 'scf.for' cannot take or produce a value of type !simt.slice<f32>; only simt ops may use it
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%t = %a) -> (!simt.slice<f32>) {
        scf.yield %t : !simt.slice<f32>
      }
      gpu.return
    }
  }
}
