// GPU test kernels for the atomics family (tests/gpu/test_atomics.py). Atomic buffers are `&mut [T]`
// parameters (simt.slice_mut): their elements are written, so they must not be read-only slices.
// Every kernel is 1-D; a thread's global id is block_id.x * block_dim.x + thread_id.x.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Every thread adds to counters of each element type, at several scopes and orderings:
    // c32 += [1, -1, 1], c64 += [3, -1], cf += [1.0, -0.25], cd += [0.5, -0.5] per thread.
    gpu.func @counters(%c32: !simt.slice_mut<i32>, %c64: !simt.slice_mut<i64>, %cf: !simt.slice_mut<f32>,
                       %cd: !simt.slice_mut<f64>) kernel {
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %one = arith.constant 1 : i32
      %one64 = arith.constant 1 : i64
      %three64 = arith.constant 3 : i64
      %onef = arith.constant 1.0 : f32
      %quarter = arith.constant 0.25 : f32
      %half = arith.constant 0.5 : f64
      %p0 = "simt.elem_ptr"(%c32, %i0) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
      %a0 = "simt.atomic_rmw"(%p0, %one) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      %p1 = "simt.elem_ptr"(%c32, %i1) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
      %a1 = "simt.atomic_rmw"(%p1, %one) {kind = "sub", scope = "device", ordering = "acq_rel"} : (!simt.ptr<i32, 1>, i32) -> i32
      %p2 = "simt.elem_ptr"(%c32, %i2) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
      %a2 = "simt.atomic_rmw"(%p2, %one) {kind = "add", scope = "system", ordering = "seq_cst"} : (!simt.ptr<i32, 1>, i32) -> i32
      %q0 = "simt.elem_ptr"(%c64, %i0) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
      %b0 = "simt.atomic_rmw"(%q0, %three64) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      %q1 = "simt.elem_ptr"(%c64, %i1) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
      %b1 = "simt.atomic_rmw"(%q1, %one64) {kind = "sub", scope = "system", ordering = "release"} : (!simt.ptr<i64, 1>, i64) -> i64
      %f0 = "simt.elem_ptr"(%cf, %i0) : (!simt.slice_mut<f32>, index) -> !simt.ptr<f32, 1>
      %e0 = "simt.atomic_rmw"(%f0, %onef) {kind = "fadd", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
      %f1 = "simt.elem_ptr"(%cf, %i1) : (!simt.slice_mut<f32>, index) -> !simt.ptr<f32, 1>
      %e1 = "simt.atomic_rmw"(%f1, %quarter) {kind = "fsub", scope = "device", ordering = "acquire"} : (!simt.ptr<f32, 1>, f32) -> f32
      %d0 = "simt.elem_ptr"(%cd, %i0) : (!simt.slice_mut<f64>, index) -> !simt.ptr<f64, 1>
      %g0 = "simt.atomic_rmw"(%d0, %half) {kind = "fadd", scope = "system", ordering = "relaxed"} : (!simt.ptr<f64, 1>, f64) -> f64
      %d1 = "simt.elem_ptr"(%cd, %i1) : (!simt.slice_mut<f64>, index) -> !simt.ptr<f64, 1>
      %g1 = "simt.atomic_rmw"(%d1, %half) {kind = "fsub", scope = "device", ordering = "seq_cst"} : (!simt.ptr<f64, 1>, f64) -> f64
      gpu.return
    }

    // hist[x[i]] += 1 for every element of x (bins bounds-checked by simt.elem_ptr).
    gpu.func @histogram(%x: !simt.slice<i32>, %hist: !simt.slice_mut<i32>) kernel {
      %tid = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %bid = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
      %bdim = "simt.block_dim"() {dim = #simt.dim<"x">} : () -> i32
      %base = arith.muli %bid, %bdim : i32
      %gid32 = arith.addi %base, %tid : i32
      %gid = arith.index_castui %gid32 : i32 to index
      %n = "simt.len"(%x) : (!simt.slice<i32>) -> index
      %in = arith.cmpi ult, %gid, %n : index
      scf.if %in {
        %v = "simt.load"(%x, %gid) : (!simt.slice<i32>, index) -> i32
        %bin = arith.index_castui %v : i32 to index
        %p = "simt.elem_ptr"(%hist, %bin) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %one = arith.constant 1 : i32
        %old = "simt.atomic_rmw"(%p, %one) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      }
      gpu.return
    }

    // Increment counter[0] (i32) and counter64[0] (i64) with compare-exchange loops; tickets[i] is the
    // i32 value thread i replaced, so the tickets are the counter's start value plus a permutation of 0..n.
    gpu.func @cas_tickets(%counter: !simt.slice_mut<i32>, %counter64: !simt.slice_mut<i64>,
                          %tickets: !simt.slice_mut<i32>) kernel {
      %tid = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %bid = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
      %bdim = "simt.block_dim"() {dim = #simt.dim<"x">} : () -> i32
      %base = arith.muli %bid, %bdim : i32
      %gid32 = arith.addi %base, %tid : i32
      %gid = arith.index_castui %gid32 : i32 to index
      %n = "simt.len"(%tickets) : (!simt.slice_mut<i32>) -> index
      %in = arith.cmpi ult, %gid, %n : index
      scf.if %in {
        %i0 = arith.constant 0 : index
        %true = arith.constant true
        %one = arith.constant 1 : i32
        %one64 = arith.constant 1 : i64
        %p = "simt.elem_ptr"(%counter, %i0) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %first = "simt.atomic_load"(%p) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>) -> i32
        %ticket = scf.while (%seen = %first) : (i32) -> i32 {
          %next = arith.addi %seen, %one : i32
          %old, %ok = "simt.atomic_cmpxchg"(%p, %seen, %next) {scope = "device", success_ordering = "acq_rel", failure_ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i1)
          %again = arith.xori %ok, %true : i1
          scf.condition(%again) %old : i32
        } do {
        ^bb0(%old: i32):
          scf.yield %old : i32
        }
        "simt.store"(%tickets, %gid, %ticket) : (!simt.slice_mut<i32>, index, i32) -> ()
        %q = "simt.elem_ptr"(%counter64, %i0) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %first64 = "simt.atomic_load"(%q) {scope = "system", ordering = "acquire"} : (!simt.ptr<i64, 1>) -> i64
        %ticket64 = scf.while (%seen = %first64) : (i64) -> i64 {
          %next = arith.addi %seen, %one64 : i64
          %old, %ok = "simt.atomic_cmpxchg"(%q, %seen, %next) {scope = "system", success_ordering = "seq_cst", failure_ordering = "seq_cst"} : (!simt.ptr<i64, 1>, i64, i64) -> (i64, i1)
          %again = arith.xori %ok, %true : i1
          scf.condition(%again) %old : i64
        } do {
        ^bb0(%old: i64):
          scf.yield %old : i64
        }
      }
      gpu.return
    }

    // Thread i swaps i into slot[0] (as i32, f32 and f64) and records what it took out; the values taken
    // plus what is left in the slots are the start value and 0..n, each once.
    gpu.func @exchange(%slot: !simt.slice_mut<i32>, %fslot: !simt.slice_mut<f32>, %dslot: !simt.slice_mut<f64>,
                       %taken: !simt.slice_mut<i32>, %ftaken: !simt.slice_mut<f32>, %dtaken: !simt.slice_mut<f64>) kernel {
      %tid = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %bid = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
      %bdim = "simt.block_dim"() {dim = #simt.dim<"x">} : () -> i32
      %base = arith.muli %bid, %bdim : i32
      %gid32 = arith.addi %base, %tid : i32
      %gid = arith.index_castui %gid32 : i32 to index
      %n = "simt.len"(%taken) : (!simt.slice_mut<i32>) -> index
      %in = arith.cmpi ult, %gid, %n : index
      scf.if %in {
        %i0 = arith.constant 0 : index
        %p = "simt.elem_ptr"(%slot, %i0) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %old = "simt.atomic_rmw"(%p, %gid32) {kind = "xchg", scope = "device", ordering = "acq_rel"} : (!simt.ptr<i32, 1>, i32) -> i32
        "simt.store"(%taken, %gid, %old) : (!simt.slice_mut<i32>, index, i32) -> ()
        %fv = arith.uitofp %gid32 : i32 to f32
        %fp = "simt.elem_ptr"(%fslot, %i0) : (!simt.slice_mut<f32>, index) -> !simt.ptr<f32, 1>
        %fold = "simt.atomic_rmw"(%fp, %fv) {kind = "xchg", scope = "system", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
        "simt.store"(%ftaken, %gid, %fold) : (!simt.slice_mut<f32>, index, f32) -> ()
        %dv = arith.uitofp %gid32 : i32 to f64
        %dp = "simt.elem_ptr"(%dslot, %i0) : (!simt.slice_mut<f64>, index) -> !simt.ptr<f64, 1>
        %dold = "simt.atomic_rmw"(%dp, %dv) {kind = "xchg", scope = "device", ordering = "seq_cst"} : (!simt.ptr<f64, 1>, f64) -> f64
        "simt.store"(%dtaken, %gid, %dold) : (!simt.slice_mut<f64>, index, f64) -> ()
      }
      gpu.return
    }

    // Reduce x into r[0..7) = min, max, umin, umax, and, or, xor (signed and unsigned min/max differ
    // on negative values), for i32 and i64.
    gpu.func @reductions(%x: !simt.slice<i32>, %x64: !simt.slice<i64>, %r: !simt.slice_mut<i32>,
                         %r64: !simt.slice_mut<i64>) kernel {
      %tid = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %bid = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
      %bdim = "simt.block_dim"() {dim = #simt.dim<"x">} : () -> i32
      %base = arith.muli %bid, %bdim : i32
      %gid32 = arith.addi %base, %tid : i32
      %gid = arith.index_castui %gid32 : i32 to index
      %n = "simt.len"(%x) : (!simt.slice<i32>) -> index
      %in = arith.cmpi ult, %gid, %n : index
      scf.if %in {
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %i2 = arith.constant 2 : index
        %i3 = arith.constant 3 : index
        %i4 = arith.constant 4 : index
        %i5 = arith.constant 5 : index
        %i6 = arith.constant 6 : index
        %v = "simt.load"(%x, %gid) : (!simt.slice<i32>, index) -> i32
        %p0 = "simt.elem_ptr"(%r, %i0) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %a0 = "simt.atomic_rmw"(%p0, %v) {kind = "min", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
        %p1 = "simt.elem_ptr"(%r, %i1) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %a1 = "simt.atomic_rmw"(%p1, %v) {kind = "max", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
        %p2 = "simt.elem_ptr"(%r, %i2) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %a2 = "simt.atomic_rmw"(%p2, %v) {kind = "umin", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
        %p3 = "simt.elem_ptr"(%r, %i3) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %a3 = "simt.atomic_rmw"(%p3, %v) {kind = "umax", scope = "system", ordering = "acq_rel"} : (!simt.ptr<i32, 1>, i32) -> i32
        %p4 = "simt.elem_ptr"(%r, %i4) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %a4 = "simt.atomic_rmw"(%p4, %v) {kind = "and", scope = "device", ordering = "release"} : (!simt.ptr<i32, 1>, i32) -> i32
        %p5 = "simt.elem_ptr"(%r, %i5) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %a5 = "simt.atomic_rmw"(%p5, %v) {kind = "or", scope = "device", ordering = "acquire"} : (!simt.ptr<i32, 1>, i32) -> i32
        %p6 = "simt.elem_ptr"(%r, %i6) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %a6 = "simt.atomic_rmw"(%p6, %v) {kind = "xor", scope = "device", ordering = "seq_cst"} : (!simt.ptr<i32, 1>, i32) -> i32
        %w = "simt.load"(%x64, %gid) : (!simt.slice<i64>, index) -> i64
        %q0 = "simt.elem_ptr"(%r64, %i0) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %b0 = "simt.atomic_rmw"(%q0, %w) {kind = "min", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
        %q1 = "simt.elem_ptr"(%r64, %i1) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %b1 = "simt.atomic_rmw"(%q1, %w) {kind = "max", scope = "system", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
        %q2 = "simt.elem_ptr"(%r64, %i2) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %b2 = "simt.atomic_rmw"(%q2, %w) {kind = "umin", scope = "device", ordering = "acq_rel"} : (!simt.ptr<i64, 1>, i64) -> i64
        %q3 = "simt.elem_ptr"(%r64, %i3) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %b3 = "simt.atomic_rmw"(%q3, %w) {kind = "umax", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
        %q4 = "simt.elem_ptr"(%r64, %i4) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %b4 = "simt.atomic_rmw"(%q4, %w) {kind = "and", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
        %q5 = "simt.elem_ptr"(%r64, %i5) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %b5 = "simt.atomic_rmw"(%q5, %w) {kind = "or", scope = "system", ordering = "seq_cst"} : (!simt.ptr<i64, 1>, i64) -> i64
        %q6 = "simt.elem_ptr"(%r64, %i6) : (!simt.slice_mut<i64>, index) -> !simt.ptr<i64, 1>
        %b6 = "simt.atomic_rmw"(%q6, %w) {kind = "xor", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 1>, i64) -> i64
      }
      gpu.return
    }

    // A per-block histogram of x[i] & 15 in shared memory with block-scope atomics, then merged into
    // hist with device-scope adds: the result is the histogram of the whole of x.
    gpu.func @block_histogram(%x: !simt.slice<i32>, %hist: !simt.slice_mut<i32>) kernel {
      %bins = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<i32, 16>
      %shared = "simt.shared_ptr"(%bins) : (!simt.shared<i32, 16>) -> !simt.ptr<i32, 3>
      %tid = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %bid = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
      %bdim = "simt.block_dim"() {dim = #simt.dim<"x">} : () -> i32
      %base = arith.muli %bid, %bdim : i32
      %gid32 = arith.addi %base, %tid : i32
      %gid = arith.index_castui %gid32 : i32 to index
      %lane = arith.index_castui %tid : i32 to index
      %sixteen = arith.constant 16 : index
      %owns_bin = arith.cmpi ult, %lane, %sixteen : index
      scf.if %owns_bin {
        %zero = arith.constant 0 : i32
        %mine = "simt.ptr_offset"(%shared, %lane) : (!simt.ptr<i32, 3>, index) -> !simt.ptr<i32, 3>
        "simt.atomic_store"(%mine, %zero) {scope = "block", ordering = "relaxed"} : (!simt.ptr<i32, 3>, i32) -> ()
      }
      "simt.sync_threads"() : () -> ()
      %n = "simt.len"(%x) : (!simt.slice<i32>) -> index
      %in = arith.cmpi ult, %gid, %n : index
      scf.if %in {
        %v = "simt.load"(%x, %gid) : (!simt.slice<i32>, index) -> i32
        %fifteen = arith.constant 15 : i32
        %low = arith.andi %v, %fifteen : i32
        %bin = arith.index_castui %low : i32 to index
        %p = "simt.ptr_offset"(%shared, %bin) : (!simt.ptr<i32, 3>, index) -> !simt.ptr<i32, 3>
        %one = arith.constant 1 : i32
        %old = "simt.atomic_rmw"(%p, %one) {kind = "add", scope = "block", ordering = "relaxed"} : (!simt.ptr<i32, 3>, i32) -> i32
      }
      "simt.sync_threads"() : () -> ()
      scf.if %owns_bin {
        %mine = "simt.ptr_offset"(%shared, %lane) : (!simt.ptr<i32, 3>, index) -> !simt.ptr<i32, 3>
        %count = "simt.atomic_load"(%mine) {scope = "block", ordering = "relaxed"} : (!simt.ptr<i32, 3>) -> i32
        %g = "simt.elem_ptr"(%hist, %lane) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %old = "simt.atomic_rmw"(%g, %count) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
      }
      gpu.return
    }

    // Message passing inside each block: thread 0 writes data[b] = 42 + b with a plain store, then sets
    // flag[b] with a release store; thread 32 (another warp) spins on an acquire load of the flag and
    // then reads the data plainly into out[b]. Acquire/release make it see 42 + b.
    gpu.func @message(%data: !simt.slice_mut<i32>, %flag: !simt.slice_mut<i32>, %out: !simt.slice_mut<i32>) kernel {
      %tid = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %bid = "simt.block_id"() {dim = #simt.dim<"x">} : () -> i32
      %b = arith.index_castui %bid : i32 to index
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %is_producer = arith.cmpi eq, %tid, %c0 : i32
      scf.if %is_producer {
        %c42 = arith.constant 42 : i32
        %value = arith.addi %bid, %c42 : i32
        "simt.store"(%data, %b, %value) : (!simt.slice_mut<i32>, index, i32) -> ()
        %f = "simt.elem_ptr"(%flag, %b) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        %one = arith.constant 1 : i32
        "simt.atomic_store"(%f, %one) {scope = "device", ordering = "release"} : (!simt.ptr<i32, 1>, i32) -> ()
      }
      %is_consumer = arith.cmpi eq, %tid, %c32 : i32
      scf.if %is_consumer {
        %f = "simt.elem_ptr"(%flag, %b) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        scf.while : () -> () {
          %seen = "simt.atomic_load"(%f) {scope = "device", ordering = "acquire"} : (!simt.ptr<i32, 1>) -> i32
          %unset = arith.cmpi eq, %seen, %c0 : i32
          scf.condition(%unset)
        } do {
          scf.yield
        }
        %value = "simt.load"(%data, %b) : (!simt.slice_mut<i32>, index) -> i32
        "simt.store"(%out, %b, %value) : (!simt.slice_mut<i32>, index, i32) -> ()
      }
      gpu.return
    }
  }
}
