// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @arrive_needs_both_flags() {
  // expected-error@+1 {{attribute "aligned" is expected but not provided}}
  "simt.cluster_arrive"() {relaxed = true} : () -> ()
  return
}

// -----

func.func @arrive_flags_are_booleans() {
  // expected-error@+1 {{does not satisfy the constraint}}
  "simt.cluster_arrive"() {relaxed = 1 : i32, aligned = false} : () -> ()
  return
}

// -----

func.func @wait_needs_aligned() {
  // expected-error@+1 {{attribute "aligned" is expected but not provided}}
  "simt.cluster_wait"() : () -> ()
  return
}

// -----

func.func @rank_is_i32(%p: !simt.ptr<f32, 3>, %r: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %q = "simt.map_shared_rank"(%p, %r) : (!simt.ptr<f32, 3>, i64) -> !simt.ptr<f32, 7>
  return
}

// -----

func.func @shared_maps_to_shared_cluster(%p: !simt.ptr<f32, 3>, %r: i32) {
  // expected-error@+1 {{a pointer into address space 3 maps to address space 7, but the result is in 0}}
  %q = "simt.map_shared_rank"(%p, %r) : (!simt.ptr<f32, 3>, i32) -> !simt.ptr<f32, 0>
  return
}

// -----

func.func @global_pointers_do_not_map(%p: !simt.ptr<f32, 1>, %r: i32) {
  // expected-error@+1 {{maps a shared (3) or generic (0) pointer, not one into address space 1}}
  %q = "simt.map_shared_rank"(%p, %r) : (!simt.ptr<f32, 1>, i32) -> !simt.ptr<f32, 7>
  return
}

// -----

func.func @element_type_is_kept(%p: !simt.ptr<f32, 3>, %r: i32) {
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  %q = "simt.map_shared_rank"(%p, %r) : (!simt.ptr<f32, 3>, i32) -> !simt.ptr<i32, 7>
  return
}

// -----

func.func @grid_workspace_is_global_i32(%w: !simt.ptr<i32, 3>) {
  // expected-error@+1 {{expected '1 : i64' but got '3 : i64'}}
  "simt.grid_sync"(%w) : (!simt.ptr<i32, 3>) -> ()
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error@+1 {{a cooperative kernel's last parameter is its grid-barrier workspace, !simt.ptr<i32, 1>}}
    gpu.func @no_workspace(%x: i32) kernel attributes {simt.cooperative} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error@+1 {{simt.cooperative is a unit attribute}}
    gpu.func @valued(%w: !simt.ptr<i32, 1>) kernel attributes {simt.cooperative = 1 : i32} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error@+1 {{simt.cooperative belongs on a kernel}}
    gpu.func @not_a_kernel(%w: !simt.ptr<i32, 1>) attributes {simt.cooperative} {
      gpu.return
    }
  }
}
