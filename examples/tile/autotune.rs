// RMSNorm with a tunable column block: y = x / sqrt(mean(x^2) + eps) * w over each row of N columns. Each
// tile block owns one output row and walks it in N / BLOCK_SIZE column blocks, twice: once to sum the squares,
// once to scale and store. BLOCK_SIZE changes only the speed (how much each step loads), never the result, so
// autotune.py times several values and keeps the fastest.
#[cutile::module]
pub mod autotune {
    use cutile::core::*;

    #[cutile::entry()]
    pub fn rms_norm<const N: i32, const BLOCK_SIZE: i32>(
        x: &Tensor<f32, {[-1, N]}>,
        w: &Tensor<f32, {[N]}>,
        out: &mut Tensor<f32, {[1, N]}>,
        eps: f32,
    ) {
        let block = const_shape![1, BLOCK_SIZE];
        let steps: i32 = N / BLOCK_SIZE;
        let (row, _, _) = get_tile_block_id();
        let xs = x.partition(block);
        let mut squares: Tile<f32, {[1, BLOCK_SIZE]}> = constant(0.0f32, block);
        for j in 0i32..steps {
            let tx: Tile<f32, {[1, BLOCK_SIZE]}> = xs.load([row, j]);
            squares = squares + tx * tx;
        }
        let total: f32 = tile_to_scalar(reduce_sum(reduce_sum(squares, 1), 0));
        let n: f32 = convert_scalar(N);
        let rstd: f32 = tile_to_scalar(rsqrt(scalar_to_tile(total / n + eps)));
        let scale: Tile<f32, {[1, BLOCK_SIZE]}> = broadcast_scalar(rstd, block);
        let ws = w.partition(const_shape![BLOCK_SIZE]);
        let mut outs = unsafe { out.partition_mut(block) };
        for j in 0i32..steps {
            let tx: Tile<f32, {[1, BLOCK_SIZE]}> = xs.load([row, j]);
            let tw: Tile<f32, {[1, BLOCK_SIZE]}> = ws.load([j]).reshape(block);
            unsafe { outs.store(tx * scale * tw, [0i32, j]) };
        }
    }
}
