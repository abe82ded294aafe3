// expect: 6:5: kernel `other` cannot be called from device code
#[kernel]
pub fn other(a: u32) {}
#[kernel]
pub fn k(a: u32) {
    other(a);
}
