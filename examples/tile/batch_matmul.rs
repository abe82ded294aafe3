// Batched GEMM: z[b] = convert(x[b] @ y[b]) for every batch b, inputs of type I with an f32 accumulator and an
// output of type O. The tensors are [batch, rows, columns]; each tile block owns one 1 x BM x BN tile of z
// (its block id is (batch, tile row, tile column)), reads 1 x BM x BK and 1 x BK x BN tiles of x and y at its
// batch, reshapes them to the 2-D tiles `mma` multiplies, and reshapes the result back for the store. On sm_90a
// the compiler keeps the TMA + wgmma path for the loop (docs/tile-hopper.md, "Batched GEMM").
#[cutile::module]
pub mod batch_matmul {
    use cutile::core::*;

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 4)))]
    pub fn batch_matmul<I: ElementType, O: ElementType, const BM: i32, const BN: i32, const BK: i32>(
        z: &mut Tensor<O, {[1, BM, BN]}>,
        x: &Tensor<I, {[-1, -1, -1]}>,
        y: &Tensor<I, {[-1, -1, -1]}>,
    ) {
        let (batch, bm, bn) = get_tile_block_id();
        let px = x.partition(const_shape![1, BM, BK]);
        let py = y.partition(const_shape![1, BK, BN]);
        let mut acc = constant(0.0f32, const_shape![BM, BN]);
        for k in 0..num_tiles(&px, 2) {
            let a = px.load([batch, bm, k]).reshape(const_shape![BM, BK]);
            let b = py.load([batch, k, bn]).reshape(const_shape![BK, BN]);
            acc = mma(a, b, acc);
        }
        z.store(convert_tile::<O>(acc).reshape(const_shape![1, BM, BN]));
    }
}
