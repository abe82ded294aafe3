// fp8 GEMM: z = convert(x @ y) with x, y of one fp8 type (f8e4m3fn or f8e5m2) and an f32 accumulator, and the
// quantization that makes fp8 data: z = convert_tile::<F>(x) of an f32 tensor (round to nearest even,
// saturating to the largest finite value). fp8 tiles are only loaded, stored, converted and multiplied by mma;
// arithmetic on them is a compile error (convert first). On sm_90a the GEMM's K loop takes wgmma with B K-major
// (y a transposed [N, K] tensor, as torch._scaled_mm takes it); elsewhere, and for a row-major y, each loaded
// tile is converted to f16 (exact) for mma.sync (docs/tile-hopper.md, "Precisions").
#[cutile::module]
pub mod gemm_fp8 {
    use cutile::core::*;

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 4)))]
    pub fn gemm<F: ElementType, O: ElementType, const BM: i32, const BN: i32, const BK: i32>(
        z: &mut Tensor<O, {[BM, BN]}>,
        x: &Tensor<F, {[-1, -1]}>,
        y: &Tensor<F, {[-1, -1]}>,
    ) {
        let (bm, bn, _) = get_tile_block_id();
        let px = x.partition(const_shape![BM, BK]);
        let py = y.partition(const_shape![BK, BN]);
        let mut acc = constant(0.0f32, const_shape![BM, BN]);
        for k in 0..num_tiles(&px, 1) {
            let a = px.load([bm, k]);
            let b = py.load([k, bn]);
            acc = mma(a, b, acc);
        }
        z.store(convert_tile::<O>(acc));
    }

    #[cutile::entry()]
    pub fn quantize<F: ElementType, const B: i32>(z: &mut Tensor<F, {[B]}>, x: &Tensor<f32, {[-1]}>) {
        let (i, _, _) = get_tile_block_id();
        let t = x.partition(const_shape![B]).load([i]);
        z.store(convert_tile::<F>(t));
    }
}
