// A persistent GEMM on a mapped output with mixed precision: inputs of type I (bf16 or f16), an f32 accumulator,
// an output of type O. Each tile block walks its own work items with `iter_indices()`, as in persistent_gemm.rs;
// on sm_90a the compiler lowers the walk onto the TMA + wgmma pipeline (docs/tile-hopper.md, "Persistent GEMM on
// a mapped output"), the walk itself driving which tiles the block's producer loads and its consumers store.
#[cutile::module]
mod persistent_mixed {
    use cutile::core::*;

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 4)))]
    fn gemm_persistent_mixed<I: ElementType, O: ElementType, const TM: i32, const TN: i32, const TK: i32,
                             const MAP: [i32; 2]>(
        mut c: MappedPartitionMut<O, { [TM, TN] }, MAP>,
        a: &Tensor<I, { [-1, -1] }>,
        b: &Tensor<I, { [-1, -1] }>,
    ) {
        let tiles_a = a.partition(const_shape![TM, TK]);
        let tiles_b = b.partition(const_shape![TK, TN]);
        for idx in c.iter_indices() {
            let (row, col) = idx.components();
            let mut acc = constant(0.0f32, const_shape![TM, TN]);
            for k in 0i32..num_tiles(&tiles_a, 1) {
                acc = mma(tiles_a.load([row, k]), tiles_b.load([k, col]), acc);
            }
            c.store(convert_tile::<O>(acc), idx);
        }
    }
}
