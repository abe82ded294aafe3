// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @barrier_in_global_memory(%bar: !simt.ptr<i64, 1>, %n: i32) {
  // expected-error@+1 {{an mbarrier lives in shared memory: the barrier must be a !simt.ptr<i64, 3>, not a global pointer}}
  "simt.mbarrier_init"(%bar, %n) : (!simt.ptr<i64, 1>, i32) -> ()
  return
}

// -----

func.func @barrier_through_a_generic_pointer(%bar: !simt.ptr<i64, 0>) {
  // expected-error@+1 {{not a generic pointer}}
  %t = "simt.mbarrier_arrive"(%bar) : (!simt.ptr<i64, 0>) -> i64
  return
}

// -----

func.func @barrier_is_64_bit(%bar: !simt.ptr<i32, 3>, %t: i64) {
  // expected-error@+1 {{an mbarrier is a 64-bit object: the barrier must be a !simt.ptr<i64, 3>, not a pointer to i32}}
  "simt.mbarrier_wait"(%bar, %t) : (!simt.ptr<i32, 3>, i64) -> ()
  return
}

// -----

func.func @barrier_is_a_pointer(%bar: i64) {
  // expected-error@+1 {{expected}}
  "simt.mbarrier_inval"(%bar) : (i64) -> ()
  return
}

// -----

func.func @token_is_i64(%bar: !simt.ptr<i64, 3>, %t: i32) {
  // expected-error@+1 {{expected 'i64' but got 'i32'}}
  %d = "simt.mbarrier_test_wait"(%bar, %t) : (!simt.ptr<i64, 3>, i32) -> i1
  return
}

// -----

func.func @parity_is_i32(%bar: !simt.ptr<i64, 3>, %p: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %d = "simt.mbarrier_try_wait_parity"(%bar, %p) : (!simt.ptr<i64, 3>, i64) -> i1
  return
}

// -----

func.func @tx_bytes_are_i32(%bar: !simt.ptr<i64, 3>, %tx: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  "simt.mbarrier_expect_tx"(%bar, %tx) : (!simt.ptr<i64, 3>, i64) -> ()
  return
}

// -----

func.func @arrive_returns_a_token(%bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{expected 'i64' but got 'i32'}}
  %t = "simt.mbarrier_arrive"(%bar) : (!simt.ptr<i64, 3>) -> i32
  return
}

// -----

func.func @wait_results_are_i1(%bar: !simt.ptr<i64, 3>, %t: i64) {
  // expected-error@+1 {{expected 'i1' but got 'i32'}}
  %d = "simt.mbarrier_try_wait"(%bar, %t) : (!simt.ptr<i64, 3>, i64) -> i32
  return
}

// -----

func.func @no_complete_needs_a_count(%bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{expects exactly 2 operands, but got 1}}
  %t = "simt.mbarrier_arrive_no_complete"(%bar) : (!simt.ptr<i64, 3>) -> i64
  return
}

// -----

func.func @cluster_arrive_takes_an_address(%bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{expected 'i64'}}
  "simt.mbarrier_arrive_cluster"(%bar) {scope = "cluster"} : (!simt.ptr<i64, 3>) -> ()
  return
}

// -----

func.func @fence_space_is_known() {
  // expected-error@+1 {{'"shared"' does not satisfy the constraint}}
  "simt.fence_proxy_async"() {space = "shared"} : () -> ()
  return
}

// -----

func.func @fence_needs_a_space() {
  // expected-error@+1 {{attribute "space" is expected but not provided}}
  "simt.fence_proxy_async"() : () -> ()
  return
}
