// What LLVM's translation cannot take (it would abort) is a located error before the PTX pipeline runs.
// RUN: %oxide-opt %s --emit=ptx --split-input-file --verify-diagnostics

gpu.module @k {
  gpu.func @f(%p: !llvm.ptr<1>, %i: i64, %v: f32) kernel {
    // expected-error@+1 {{'llvm.getelementptr' op element type: LLVM has no type for 'tf32'}}
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, tf32
    llvm.store %v, %q : f32, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%p: !llvm.ptr<1>, %i: i64, %v: f32) kernel {
    // expected-error@+1 {{'llvm.getelementptr' op element type: 'i0' has no LLVM form: LLVM integers have 1 to 8388608 bits}}
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !llvm.struct<(f32, i0)>
    llvm.store %v, %q : f32, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%p: !llvm.ptr<1>, %i: i64, %v: f32) kernel {
    // expected-error@+1 {{'llvm.getelementptr' op element type: LLVM has no type for 'memref<?xf32>'}}
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, memref<?xf32>
    llvm.store %v, %q : f32, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%p: !llvm.ptr<1>, %v: f32) kernel {
    %c = llvm.mlir.constant(1 : i32) : i32
    // expected-error@+1 {{'llvm.alloca' op element type: LLVM has no type for 'f8E4M3FN'}}
    %q = llvm.alloca %c x !llvm.array<4 x f8E4M3FN> : (i32) -> !llvm.ptr<5>
    llvm.store %v, %q : f32, !llvm.ptr<5>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%p: !llvm.ptr<1>) kernel {
    // expected-error@+1 {{'llvm.load' op 'i0' has no LLVM form}}
    %x = llvm.load %p : !llvm.ptr<1> -> i0
    llvm.store %x, %p : i0, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{address space 2147483647 does not exist on NVPTX}}
  gpu.func @f(%out: !llvm.ptr<2147483647>) kernel {
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%p: !llvm.ptr<1>, %v: f32) kernel {
    // expected-error@+1 {{'llvm.addrspacecast' op type '!llvm.ptr<2>': address space 2 does not exist on NVPTX}}
    %q = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr<2>
    llvm.store %v, %q : f32, !llvm.ptr<2>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%p: !llvm.ptr<1>, %v: i32) kernel {
    %ok = llvm.getelementptr %p[268435455] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    llvm.store %v, %ok : i32, !llvm.ptr<1>
    // expected-error@+1 {{'llvm.getelementptr' op constant index 2147483647 is outside [-268435456, 268435456); pass a large offset as an i64 value operand}}
    %q = llvm.getelementptr %p[0x7fffffff] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    llvm.store %v, %q : i32, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{'llvm.mlir.global' op initial value '0.000000e+00 : f8E4M3FN': LLVM has no type for 'f8E4M3FN'; write the value as f32}}
  llvm.mlir.global @SCALE(0.000000e+00 : f8E4M3FN) {addr_space = 4 : i32} : f32
  gpu.func @f() kernel {
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%mask: i32) kernel {
    gpu.return
  }
  // expected-error@+1 {{'simt.thread_fence' op is outside any function; move it into a gpu.func body}}
  "simt.thread_fence"() {scope = "block"} : () -> ()
}

// -----

gpu.module @k {
  // expected-error@+1 {{'simt.inline_ptx' op is outside any function}}
  "simt.inline_ptx"() {asm = "brkpt;", constraints = "", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>} : () -> ()
  gpu.func @f() kernel {
    gpu.return
  }
}

// -----

// An i0 nested in an oxide type (fuzz finding: a shared array of i0 aborted the translation).
gpu.module @k {
  gpu.func @two_arrays() kernel {
    // expected-error@+1 {{'simt.shared_array' op type '!simt.shared<i0, 8192 : i64>': 'i0' has no LLVM form: LLVM integers have 1 to 8388608 bits}}
    %a = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<i0, 8192 : i64>
    %b = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f64, 3072 : i64>
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{'gpu.func' op type 'vector<4xi0>': 'i0' has no LLVM form}}
  gpu.func @f(%v: vector<4xi0>) kernel {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{'func.func' op attribute 'function_type': 'i0' has no LLVM form}}
  func.func private @g(i32) -> i0
  gpu.func @f() kernel {
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f() kernel {
    // expected-error@+1 {{'llvm.mlir.undef' op type '!llvm.struct<(f32, vector<2xi8388609>)>': 'i8388609' has no LLVM form}}
    %a = llvm.mlir.undef : !llvm.struct<(f32, vector<2xi8388609>)>
    gpu.return
  }
}

// -----

// A fuzz finding: a shared array of tensors reached the translation, which aborted.
gpu.module @k {
  gpu.func @two_arrays() {
    // expected-error@+1 {{'simt.shared_array' op type '!simt.shared<tensor<?xf32>, 8192 : i64>': its element 'tensor<...>' has no LLVM form}}
    %a = "simt.shared_array"() {align = 16} : () -> !simt.shared<tensor<?xf32>, 8192>
    gpu.return
  }
}

// -----

// A fuzz finding: a symbol where the element type belongs (the lowering failed to read it back).
gpu.module @k {
  gpu.func @two_arrays() {
    // expected-error@+1 {{'simt.shared_array' op type '!simt.shared<@copy, 8192 : i64>': its element '@copy' is not a type}}
    %a = "simt.shared_array"() {align = 16} : () -> !simt.shared<@copy, 8192>
    gpu.return
  }
}

// -----

// A fuzz finding: a pointer type only in a declared function's type (no value has it).
gpu.module @k {
  // expected-error@+1 {{'func.func' op attribute 'function_type': address space 4294967295 does not exist on NVPTX}}
  func.func private @g() -> !llvm.ptr<4294967295>
  gpu.func @f() {
    gpu.return
  }
}

// -----

// A fuzz finding: a number where the element type belongs (the lowering built an LLVM array of it).
gpu.module @k {
  gpu.func @f() {
    // expected-error@+1 {{'simt.shared_array' op type '!simt.shared<4 : i64, 8192 : i64>': its element '4 : i64' is not a type}}
    %a = "simt.shared_array"() {align = 16} : () -> !simt.shared<4, 8192>
    gpu.return
  }
}

// -----

// A fuzz finding: a gpu.module inside a gpu.module (its kernels' parameters were left unlowered).
gpu.module @outer {
  // expected-error@+1 {{'gpu.module' op is inside another gpu.module; put every gpu.module at the top level of the input}}
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

// A fuzz finding (seed 111, index 45848): a shared array of `index`, which has no fixed width in memory
// (the translation reached an unreachable case).
gpu.module @k {
  gpu.func @two_arrays() {
    // expected-error@+1 {{'simt.shared_array' op type '!simt.shared<index, 8192 : i64>': its element 'index' has no LLVM form; use an integer, float, vector or struct element}}
    %a = "simt.shared_array"() {align = 16} : () -> !simt.shared<index, 8192>
    gpu.return
  }
}
