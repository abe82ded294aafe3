// Byte histogram: each block counts into 256 shared-memory bins with block-scope atomics (grid-stride over
// the input), then adds its bins to the global histogram with device-scope atomics.
use cuda_device::atomic::{AtomicOrdering, BlockAtomicU32, DeviceAtomicU32};
use cuda_device::{kernel, launch_contract, thread, SharedArray};

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn histogram(data: &[u8], bins: &[DeviceAtomicU32]) {
    static mut LOCAL: SharedArray<u32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    LOCAL[t] = 0;
    thread::sync_threads();
    let stride = (thread::gridDim_x() as usize) * 256;
    let mut i = thread::index_1d().get();
    while i < data.len() {
        let bin = data[i] as usize;
        BlockAtomicU32::from_ptr(LOCAL.as_mut_ptr().add(bin)).fetch_add(1, AtomicOrdering::Relaxed);
        i += stride;
    }
    thread::sync_threads();
    let count = LOCAL[t];
    if count > 0 {
        bins[t].fetch_add(count, AtomicOrdering::Relaxed);
    }
}
