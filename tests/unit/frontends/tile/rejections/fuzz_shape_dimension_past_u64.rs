// expect: 6:51: shape dimension 18446744073709551616 is out of range: dimens
#[cutile::module]
 mod histogram {
    #[cutile::entry()]
     unsafe fn histogram(counts: *mut i32, x: &Tensor<i32, {[1]}>, n: i32) {
        let values: Tile<i32, {[]}> = x.partition(const_shape![0x10000000000000000]).load([]);
    }
}
