// expect: 6:33: `...` is not a range operator; write `a..b` (exclusive) or `
#[cutile::module]
 mod histogram {
    #[cutile::entry()]
      unsafe fn histogram(counts: *mut i32, x: Tensor<i32, {[]}>, n: i32) {
         bins = ().broadcast([])...();
    }
}
