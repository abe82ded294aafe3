// expect: 3:13: cannot find type `Matrix` in this scope
#[kernel]
pub fn k(a: Matrix) {
}
