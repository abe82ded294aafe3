// expect: 5:5: a DisjointSlice is written only through `get_mut(thread_index)`
#[kernel]
pub fn k(a: f32, mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    out[i] = a;
}
