// expect: 4:13: cannot infer the type of `None` here
#[kernel]
pub fn k(a: f32) {
    let p = None;
}
