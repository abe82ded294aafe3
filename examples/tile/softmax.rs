// Fused row softmax: each tile block owns BM rows of the output and reads the same rows of x. N is the tile
// width (a power of two at least the row length); columns past the row length read 0 and are masked to
// -inf so that they add nothing to the row sums.
#[cutile::module]
pub mod softmax {
    use cutile::core::*;

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 4)))]
    pub fn softmax<const BM: i32, const N: i32>(y: &mut Tensor<f32, {[BM, N]}>, x: &Tensor<f32, {[-1, -1]}>) {
        let n = x.shape()[1];
        let tx: Tile<f32, {[BM, N]}> = load_tile_like_2d(x, y);
        let inside = column_mask::<BM, N>(n);
        let tx = select(inside, tx, constant(f32::NEG_INFINITY, y.shape()));

        let row_max = reduce_max(tx, 1).reshape(const_shape![BM, 1]).broadcast(y.shape());
        let e = exp(tx - row_max);
        let row_sum = reduce_sum(e, 1).reshape(const_shape![BM, 1]).broadcast(y.shape());
        // The division may be approximate (PTX div.approx.f32, within 2 ulp): row_sum is at least 1.
        y.store(divf(e, row_sum, rounding::Approx, ftz::Disabled));
    }

    /// True for the columns of a [BM, N] tile that lie inside a row of length n.
    fn column_mask<const BM: i32, const N: i32>(n: i32) -> Tile<bool, {[BM, N]}> {
        let cols = iota::<i32>(const_shape![N]).reshape(const_shape![1, N]).broadcast(const_shape![BM, N]);
        lt_tile(cols, broadcast_scalar(n, const_shape![BM, N]))
    }
}
