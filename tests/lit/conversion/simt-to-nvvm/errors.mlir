// Values of simt types may only flow between simt ops: anything else is a located error, not a crash.
// RUN: not %oxide-opt %s --split-input-file --emit=ptx 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @select_slices(%a: !simt.slice<f32>, %b: !simt.slice<f32>, %c: i1) kernel {
      // CHECK: errors.mlir:[[# @LINE + 1]]:12: error: 'arith.select' cannot take or produce a value of type !simt.slice<f32>; only simt ops may use it
      %s = arith.select %c, %a, %b : !simt.slice<f32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    func.func private @helper(%a: !simt.slice<f32>)
    gpu.func @call(%a: !simt.slice<f32>) kernel {
      // CHECK: errors.mlir:[[# @LINE + 1]]:7: error: 'func.call' cannot take or produce a value of type !simt.slice<f32>; only simt ops may use it
      func.call @helper(%a) : (!simt.slice<f32>) -> ()
      gpu.return
    }
  }
}
