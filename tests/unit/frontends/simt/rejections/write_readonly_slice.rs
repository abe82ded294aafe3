// expect: 5:5: cannot assign to an element of a `&[T]`
#[kernel]
pub fn k(x: &[f32]) {
    let i = thread::index_1d().get();
    x[i] = 1.0;
}
