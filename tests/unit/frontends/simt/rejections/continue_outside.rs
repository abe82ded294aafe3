// expect: 4:5: `continue` outside of a loop
#[kernel]
pub fn k(a: u32) {
    continue;
}
