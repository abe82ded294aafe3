// expect: 5:39: `DynamicSharedArray` alignment 18446744073709551615 must be a power of two from 1 to 1024 bytes
#[kernel]
#[launch_contract(domain = 1, block = (128, 1, 1), dynamic_shared_range = (512, 4096), dynamic_shared_alignment = 16)]
pub fn k(mut out: DisjointSlice<f32>) {
    let s = DynamicSharedArray::<f32, 18446744073709551615>::get();
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = unsafe { *s };
    }
}
