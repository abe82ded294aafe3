// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @sync_threads_takes_nothing(%m: i32) {
  // expected-error@+1 {{expects exactly 0 operands, but got 1}}
  "simt.sync_threads"(%m) : (i32) -> ()
  return
}

// -----

func.func @warp_sync_mask_is_i32(%m: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  "simt.warp_sync"(%m) : (i64) -> ()
  return
}

// -----

func.func @warp_sync_needs_a_mask() {
  // expected-error@+1 {{expects exactly 1 operands, but got 0}}
  "simt.warp_sync"() : () -> ()
  return
}

// -----

func.func @fence_scope_is_block_device_or_system() {
  // expected-error@+1 {{'"cluster"' does not satisfy the constraint}}
  "simt.thread_fence"() {scope = "cluster"} : () -> ()
  return
}

// -----

func.func @fence_needs_a_scope() {
  // expected-error@+1 {{attribute "scope" is expected but not provided}}
  "simt.thread_fence"() : () -> ()
  return
}
