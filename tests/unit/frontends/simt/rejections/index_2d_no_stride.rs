// expect: 4:13: `thread::index_2d` needs the row stride: `thread::index_2d::<S>()`
#[kernel]
pub fn k(a: f32) {
    let i = thread::index_2d();
}
