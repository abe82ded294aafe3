// nvcc peer of benchmarks/suite/kernels/stencil.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

extern "C" __global__ void stencil(const float* __restrict__ in, size_t width, size_t height,
                                   float* __restrict__ out) {
    size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (r > 0 && c > 0 && r + 1 < height && c + 1 < width) {
        float centre = in[r * width + c];
        float sum = in[(r - 1) * width + c] + in[(r + 1) * width + c] + in[r * width + c - 1] + in[r * width + c + 1];
        out[r * width + c] = 0.5f * centre + 0.125f * sum;
    }
}
