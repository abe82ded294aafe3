// expect: 4:13: cannot find function `frobnicate` in this scope
#[kernel]
pub fn k(a: f32) {
    let c = frobnicate(a);
}
