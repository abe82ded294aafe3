// Shared-memory block sum (256 threads per block): the nvcc reference for reduce.mlir.
extern "C" __global__ void __launch_bounds__(256) block_sum(const float* __restrict__ x, float* __restrict__ out,
                                                            unsigned long long n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  unsigned long long i = blockIdx.x * 256ull + t;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
