// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

gpu.module @k {
  // expected-error@+1 {{attribute 'simt.contract': a contract must state its domain (1, 2 or 3)}}
  gpu.func @no_domain() kernel attributes {simt.contract = {block = array<i32: 32, 1, 1>}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{domain must be 1, 2 or 3, got 4 : i64}}
  gpu.func @bad_domain() kernel attributes {simt.contract = {domain = 4 : i64}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{unknown contract field 'grid'}}
  gpu.func @unknown_field() kernel attributes {simt.contract = {domain = 1 : i64, grid = 4 : i64}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{block must be array<i32: x, y, z> with 1..1024 threads in all}}
  gpu.func @big_block() kernel attributes {simt.contract = {domain = 1 : i64, block = array<i32: 1024, 2, 1>}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{coordinates can only be "u32"}}
  gpu.func @coords() kernel attributes {simt.contract = {domain = 1 : i64, coordinates = "u16"}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{simt.contract belongs on a kernel}}
  gpu.func @helper() attributes {simt.contract = {domain = 1 : i64}} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{expected array<i32: max_threads (1..1024)[, min_blocks (>= 1)]>}}
  gpu.func @bounds() kernel attributes {simt.launch_bounds = array<i32: 2048>} {
    gpu.return
  }
}

// -----

gpu.module @k {
  // expected-error@+1 {{simt.launch_bounds must be an array<i32: ...>}}
  gpu.func @bounds_type() kernel attributes {simt.launch_bounds = 256 : i64} {
    gpu.return
  }
}

// -----

// index_1d_u32 without the contract that proves 32-bit coordinates is rejected when lowered.
// RUN: not %oxide-opt %s --split-input-file --emit=ptx 2>&1 | FileCheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @narrow(%out: !simt.disjoint<i32, "1d">, %v: i32) kernel attributes {simt.contract = {domain = 1 : i64}} {
      // CHECK: kernel-invalid.mlir:[[# @LINE + 1]]:12: error: index_1d_u32 needs the kernel's launch contract to state domain = 1 and coordinates = u32
      %w = "simt.index_1d_u32"() : () -> !simt.thread_index<"1d">
      gpu.return
    }
  }
}
