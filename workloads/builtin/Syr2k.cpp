// syr2k: PolyBench/GPU SYR2K, C = alpha A B^T + alpha B A^T + beta C for an n x n C and n x m A,
// B, one thread per element of C in 32 x 8 blocks:
//
//     __global__ void syr2k_kernel(float* a, float* b, float* c) {
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         int i = blockIdx.y * blockDim.y + threadIdx.y;
//         if ((i < N) && (j < N)) {
//             c[i * N + j] *= BETA;
//             for (int k = 0; k < M; k++)
//                 c[i * N + j] += ALPHA * a[i * M + k] * b[j * M + k] + ALPHA * b[i * M + k] * a[j * M + k];
//         }
//     }
//
// Per iteration two warp-wide broadcasts (a[i][k], b[i][k]) and two row-per-lane loads
// (b[j][k], a[j][k]: 32 lines each).
//
// Modelled SASS: the shared rank-update listing in RankUpdatePass.hpp: 13m + 12 instructions per
// warp with a lane in range, 9 without.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/RankUpdatePass.hpp"

namespace gpusim {

namespace syr2k_kernel {

std::unique_ptr<Workload> makeSyr2k(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n"), m = param(params, "m");
    // syr2kCuda's cudaMalloc order.
    DeviceAllocator mem;
    RankUpdatePass pass{};
    pass.a = mem.allocateFloats(n * m);
    pass.b = mem.allocateFloats(n * m);
    pass.c = mem.allocateFloats(n * n);
    pass.n = n;
    pass.m = m;
    pass.twoOperands = true;
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(rankUpdateKernel("syr2k_kernel", pass));
    return std::make_unique<BasicWorkload>("syr2k", nlohmann::json(params), std::move(kernels));
}

} // namespace syr2k_kernel

WorkloadInfo syr2kWorkload() {
    using namespace syr2k_kernel;
    return {"syr2k",
            "PolyBench/GPU SYR2K, C = alpha A B^T + alpha B A^T + beta C: two row-per-lane loads "
            "(32 lines each) and two broadcasts per iteration",
            {{"n", 96, 32, 4096, "rows and columns of C, rows of A and B (N; PolyBench/GPU default 2048)"},
             {"m", 96, 1, 4096, "columns of A and B (M; PolyBench/GPU default 2048)"}},
            makeSyr2k,
            "PolyBench/GPU 1.0, SYR2K (syr2k.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
