// expect: 5:9: use of undeclared label `'outer`
#[kernel]
pub fn k(n: u32) {
    for i in 0..n {
        break 'outer;
    }
}
