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

// -----

func.func @named_barrier_zero_is_sync_threads() {
  // expected-error@+1 {{named barrier id must be 1 to 15 (0 is sync_threads'), got 0}}
  "simt.named_barrier"() {id = 0 : i32, threads = 128 : i32} : () -> ()
  return
}

// -----

func.func @named_barrier_joins_whole_warps() {
  // expected-error@+1 {{a named barrier joins whole warps: 32 to 1024 threads, a multiple of 32; got 100}}
  "simt.named_barrier"() {id = 1 : i32, threads = 100 : i32} : () -> ()
  return
}

// -----

func.func @named_barrier_ids_are_integers() {
  // expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  "simt.named_barrier"() {id = "one", threads = 128 : i32} : () -> ()
  return
}

// -----

func.func @named_barrier_arrive_zero_is_sync_threads() {
  // expected-error@+1 {{named barrier id must be 1 to 15 (0 is sync_threads'), got 0}}
  "simt.named_barrier_arrive"() {id = 0 : i32, threads = 256 : i32} : () -> ()
  return
}

// -----

func.func @named_barrier_arrive_joins_whole_warps() {
  // expected-error@+1 {{a named barrier joins whole warps: 32 to 1024 threads, a multiple of 32; got 48}}
  "simt.named_barrier_arrive"() {id = 2 : i32, threads = 48 : i32} : () -> ()
  return
}
