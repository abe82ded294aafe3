// expect: 5:9: `break` outside of a loop
#[kernel]
pub fn k(a: u32) {
    if a > 0 {
        break;
    }
}
