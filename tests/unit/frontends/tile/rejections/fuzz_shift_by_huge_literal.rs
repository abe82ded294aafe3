// expect: 6:34: integer literal is too large: the largest integer literal is
#[cutile::module]
 mod histogram {
    #[cutile::entry()]
     unsafe fn histogram(counts: *mut i32, x: &Tensor<i32, {[1]}>, n: i32) {
        let ones = (1i32, [(1 << 999999999999999999999999999999999999999999999999999999999999)]);
    }
}
