// What ptxas or LLVM's NVPTX backend would reject is a located verifier error in oxide.
// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

gpu.module @k {
  // expected-error@+1 {{'exact.' cannot be a PTX symbol name}}
  gpu.func @exact.(%out: !simt.slice_mut<i32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{'_' cannot be a PTX symbol name}}
  gpu.func @_() kernel {
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @mixed(%x: f32, %n: i64) {
    // expected-error@+1 {{the PTX template has the non-ASCII character '\u2028' (U+2028) at character 11; PTX source is ASCII only}}
    %f, %w = "simt.inline_ptx"(%x, %n) {asm = "add.f32 $0 , $2, $2; add.u64 $1, $3, 1;", constraints = "=f,=l,f,l", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>} : (f32, i64) -> (f32, i64)
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @mixed(%x: f32, %n: i64) {
    // expected-error@+1 {{invalid inline PTX constraint '= false'}}
    %f, %w = "simt.inline_ptx"(%x, %n) {asm = "add.f32 $0, $2, $2; add.u64 $1, $3, 1;", constraints = "=f,= false,f,l", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>} : (f32, i64) -> (f32, i64)
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @mixed(%x: f32) {
    // expected-error@+1 {{the PTX template uses $2 but the op has 2 operand(s)}}
    %f = "simt.inline_ptx"(%x) {asm = "add.f32 $0, $1, $2;", constraints = "=f,f", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @two_arrays() kernel {
    %a = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 8192 : i64>
    // expected-error@+1 {{the kernel's static shared memory is 57344 bytes, over the 49152-byte limit: !simt.shared<f32, 8192 : i64> (32768 bytes), !simt.shared<f64, 3072 : i64> (24576 bytes); use dynamic shared memory}}
    %b = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f64, 3072 : i64>
    gpu.return
  }
}
