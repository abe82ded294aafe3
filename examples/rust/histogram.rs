// Histogram with device-scope atomics on a `&[DeviceAtomicU32]`.
use cuda_device::atomic::{AtomicOrdering, DeviceAtomicU32};
use cuda_device::{kernel, thread};

#[kernel]
pub fn histogram(values: &[u32], bins: &[DeviceAtomicU32]) {
    let i = thread::index_1d().get();
    if i < values.len() {
        let bin = (values[i] as usize) % bins.len();
        bins[bin].fetch_add(1, AtomicOrdering::Relaxed);
    }
}
