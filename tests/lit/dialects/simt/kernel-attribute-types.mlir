// Kernel attributes whose dense arrays have an element type the Python bindings cannot represent (i128, ui32,
// si8) are verifier errors at the kernel; they used to abort the process from inside the verifier callback.
// RUN: %oxide-opt %s --split-input-file --verify-diagnostics
// RUN: %oxide-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(oxide-verify)'

gpu.module @k {
  // expected-error@+1 {{contract field 'block' must be the exact block shape, array<i32: x, y, z>, got array<i128: 128, 1, 1>}}
  gpu.func @both() kernel attributes {simt.launch_bounds = array<i32: 128, 4>, simt.contract = {domain = 1 : i64, block = array<i128: 128, 1, 1>}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{contract field 'block' must be the exact block shape, array<i32: x, y, z>, got array<ui32: 32, 1, 1>}}
  gpu.func @no_domain() kernel attributes {simt.contract = {block = array<ui32: 32, 1, 1>}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{contract field 'block' must be the exact block shape, array<i32: x, y, z>, got array<si8: 32, 1, 1>}}
  gpu.func @no_domain() kernel attributes {simt.contract = {block = array<si8: 32, 1, 1>}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{attribute 'simt.launch_bounds': simt.launch_bounds must be an attribute of a type oxide reads, got array<si8>}}
  gpu.func @bounds() kernel attributes {simt.launch_bounds = array<si8 >} {
    gpu.return
  }
}
