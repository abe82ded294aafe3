// A persistent GEMM in the cutile-rs style: the output is a `MappedPartitionMut`, whose tile grid is cut into
// work items of MAP tiles; the host launches a fixed number of tile blocks, and each walks its own work items
// with `iter_indices()`, so a block computes many output tiles (docs/tile-language.md, "Persistent kernels").
#[cutile::module]
mod persistent {
    use cutile::core::*;

    #[cutile::entry]
    fn gemm_persistent<E: ElementType, const TM: i32, const TN: i32, const TK: i32, const MAP: [i32; 2]>(
        mut c: MappedPartitionMut<E, { [TM, TN] }, MAP>,
        a: &Tensor<E, { [-1, -1] }>,
        b: &Tensor<E, { [-1, -1] }>,
    ) {
        let tiles_a = a.partition(const_shape![TM, TK]);
        let tiles_b = b.partition(const_shape![TK, TN]);
        for idx in c.iter_indices() {
            let (row, col) = idx.components();
            let mut acc: Tile<E, { [TM, TN] }> = constant(E::ZERO, const_shape![TM, TN]);
            for k in 0i32..num_tiles(&tiles_a, 1) {
                acc = mma(tiles_a.load([row, k]), tiles_b.load([k, col]), acc);
            }
            c.store(acc, idx);
        }
    }
}
