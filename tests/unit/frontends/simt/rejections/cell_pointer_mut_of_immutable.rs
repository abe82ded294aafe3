// expect: 4:37: `addr_of_mut!` needs a `let mut` local (or an element or field of one)
#[kernel]
pub fn k(x: f32) {
    let a = core::ptr::addr_of_mut!(x);
}
