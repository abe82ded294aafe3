// Tiled transpose through shared memory (32x32 tiles, 32x8 threads, +1 padding against bank conflicts):
// the nvcc reference for transpose.mlir.
#define TILE 32
extern "C" __global__ void __launch_bounds__(256) transpose(const float* __restrict__ in, float* __restrict__ out,
                                                            unsigned rows, unsigned cols) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += 8)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += 8)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
