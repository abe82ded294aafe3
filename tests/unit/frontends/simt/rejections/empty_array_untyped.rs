// expect: 4:13: cannot infer the element type of an empty array
#[kernel]
pub fn k(n: usize) {
    let a = [];
}
