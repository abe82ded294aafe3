// oxide-verify-aliasing on hand-written simt IR: witness provenance, shared-memory races between barriers,
// divergent barriers (errors when proven, warnings otherwise).
// RUN: %oxide-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(oxide-verify-aliasing)'

// A witness rebuilt from an integer could name another thread's element.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @forged(%out: !simt.disjoint<f32, "1d">, %i: i64) kernel {
      // expected-error @below {{a thread index witness cannot come from `builtin.unrealized_conversion_cast`}}
      %w = builtin.unrealized_conversion_cast %i : i64 to !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      gpu.return
    }
  }
}

// -----

// A witness taken as a parameter comes from outside the kernel.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{a thread index witness cannot be a function parameter}}
    gpu.func @param(%w: !simt.thread_index<"1d">) kernel {
      gpu.return
    }
  }
}

// -----

// Every thread of a 256-thread block writes element 0 between the same two barriers.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @all_write(%v: f32) kernel attributes {simt.contract = {domain = 1 : i64, block = array<i32: 256, 1, 1>}} {
      %s = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 256 : i64>
      %c0 = arith.constant 0 : index
      // expected-error @below {{shared-memory write/write race on the shared array declared at}}
      "simt.shared_store"(%s, %c0, %v) : (!simt.shared<f32, 256 : i64>, index, f32) -> ()
      "simt.sync_threads"() : () -> ()
      gpu.return
    }
  }
}

// -----

// Thread t writes s[t] and reads s[t + 1]; a barrier between them makes it race-free.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @neighbour(%v: f32) kernel attributes {simt.contract = {domain = 1 : i64, block = array<i32: 128, 1, 1>}} {
      %s = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 129 : i64>
      %t32 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %t = arith.index_cast %t32 : i32 to index
      %c1 = arith.constant 1 : index
      %n = arith.addi %t, %c1 : index
      "simt.shared_store"(%s, %t, %v) : (!simt.shared<f32, 129 : i64>, index, f32) -> ()
      "simt.sync_threads"() : () -> ()
      %x = "simt.shared_load"(%s, %n) : (!simt.shared<f32, 129 : i64>, index) -> f32
      "simt.sync_threads"() : () -> ()
      // expected-error @below {{shared-memory write/read race}}
      "simt.shared_store"(%s, %t, %x) : (!simt.shared<f32, 129 : i64>, index, f32) -> ()
      %y = "simt.shared_load"(%s, %n) : (!simt.shared<f32, 129 : i64>, index) -> f32
      gpu.return
    }
  }
}

// -----

// A barrier only the first half of the block reaches.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @half_barrier() kernel attributes {simt.contract = {domain = 1 : i64, block = array<i32: 64, 1, 1>}} {
      %t32 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %c32 = arith.constant 32 : i32
      %lo = arith.cmpi ult, %t32, %c32 : i32
      scf.if %lo {
        // expected-error @below {{`sync_threads()` runs under thread-dependent control flow: thread (0, 0, 0) reaches it but thread (32, 0, 0) of the same block does not}}
        "simt.sync_threads"() : () -> ()
      }
      gpu.return
    }
  }
}

// -----

// Without a contract the block shape is unknown: the same race is a warning (it needs two threads).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @uncontracted(%v: f32) kernel {
      %s = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 8 : i64>
      %c3 = arith.constant 3 : index
      // expected-warning @below {{shared-memory write/write race}}
      "simt.shared_store"(%s, %c3, %v) : (!simt.shared<f32, 8 : i64>, index, f32) -> ()
      gpu.return
    }
  }
}
