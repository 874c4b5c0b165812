// spmv: sparse matrix-vector product y = A x, CSR scalar kernel (one thread per row; Bell and
// Garland's spmv_csr_scalar_kernel, also SHOC's), on a generated matrix (CsrMatrix.hpp) whose
// non-zeros cluster along rows or along columns:
//
//     __global__ void spmv_csr_scalar_kernel(const int num_rows, const int* ptr, const int* indices,
//                                            const float* data, const float* x, float* y) {
//         int row = blockDim.x * blockIdx.x + threadIdx.x;
//         if (row < num_rows) {
//             float dot = 0;
//             int row_start = ptr[row], row_end = ptr[row + 1];
//             for (int jj = row_start; jj < row_end; jj++) dot += data[jj] * x[indices[jj]];
//             y[row] = dot;
//         }
//     }
//
// 256-thread blocks. Lane l of a warp runs its row's length in iterations; its indices/data loads
// walk its own row (lanes' rows are apart: up to 32 lines per warp access) and its x load goes
// where the column says.
//
// Modelled SASS per warp (no store in the loop, so nothing is reloaded):
//
//   0x00 S2R CTAID.X  0x10 S2R TID.X  0x20 IMAD row  0x30 ISETP row < num_rows
//   ---- lanes in range ----
//   0x40 LD ptr[row]  0x50 LD ptr[row+1]  0x60 MOV dot = 0  0x70 ISETP jj < row_end
//   loop, iteration k for the lanes whose row has more than k non-zeros:
//     0x80 LD indices[jj]  0x90 LD data[jj]  0xa0 LD x[indices[jj]]  0xb0 FFMA
//     0xc0 IADD jj  0xd0 ISETP  0xe0 BRA
//   0xf0 ST y[row]
//   ----
//   0x100 EXIT     (7 L + 10 instructions for a warp whose longest row has L non-zeros, 5 without
//                   rows in range)
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/CsrMatrix.hpp"

namespace gpusim {

namespace spmv_kernel {

constexpr unsigned kBlockThreads = 256;

namespace reg {
constexpr uint16_t kRow = 2, kPred = 3, kStart = 4, kEnd = 5, kDot = 6, kCol = 7, kVal = 8,
                   kX = 9, kJj = 10;
constexpr unsigned kUsed = 11;
} // namespace reg

enum Slot : unsigned {
    kLdStart = kIndex1dSlots, kLdEnd, kMov, kIsetpEnter,
    kLdIndex, kLdData, kLdX, kFfma, kBackEdge, kSt = kBackEdge + kBackEdgeSlots, kExit
};

struct Arrays {
    uint64_t ptr, indices, data, x, y;
};

struct Shared {
    CsrMatrix m;
    Arrays a;
};

WarpProgram spmvWarp(WarpThreads t, std::shared_ptr<const Shared> s) {
    const CsrMatrix& m = s->m;
    const Arrays& a = s->a;
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex1d(all, {.index = reg::kRow, .pred = reg::kPred})) co_yield op;
    auto row = [&](unsigned l) { return t.globalX(l); };
    const uint32_t in = t.lanesWhere([&](unsigned l) { return row(l) < m.rows; });
    if (in != 0) {
        co_yield inst::load(sassPc(kLdStart), in, {reg::kStart}, {reg::kRow}, kIntBytes,
                            [&](unsigned l) { return a.ptr + row(l) * kIntBytes; });
        co_yield inst::load(sassPc(kLdEnd), in, {reg::kEnd}, {reg::kRow}, kIntBytes,
                            [&](unsigned l) { return a.ptr + (row(l) + 1) * kIntBytes; });
        co_yield inst::alu(sassPc(kMov), in, {reg::kDot}, {});
        co_yield inst::alu(sassPc(kIsetpEnter), in, {reg::kPred}, {reg::kStart, reg::kEnd});
        uint64_t longest = 0;
        for (unsigned l = 0; l < kWarpSize; ++l)
            if (in >> l & 1u) longest = std::max(longest, m.rowLength(row(l)));
        for (uint64_t k = 0; k < longest; ++k) {
            const uint32_t live = t.lanesWhere(in, [&](unsigned l) { return m.rowLength(row(l)) > k; });
            auto jj = [&](unsigned l) { return uint64_t(m.ptr[row(l)]) + k; };
            co_yield inst::load(sassPc(kLdIndex), live, {reg::kCol}, {reg::kJj}, kIntBytes,
                                [&](unsigned l) { return a.indices + jj(l) * kIntBytes; });
            co_yield inst::load(sassPc(kLdData), live, {reg::kVal}, {reg::kJj}, kFloatBytes,
                                [&](unsigned l) { return a.data + jj(l) * kFloatBytes; });
            co_yield inst::load(sassPc(kLdX), live, {reg::kX}, {reg::kCol}, kFloatBytes,
                                [&](unsigned l) { return a.x + uint64_t(m.indices[jj(l)]) * kFloatBytes; });
            co_yield inst::alu(sassPc(kFfma), live, {reg::kDot}, {reg::kVal, reg::kX, reg::kDot});
            for (const auto& op : backEdge(live, kBackEdge, reg::kJj, reg::kPred, reg::kEnd)) co_yield op;
        }
        co_yield inst::store(sassPc(kSt), in, {reg::kRow, reg::kDot}, kFloatBytes,
                             [&](unsigned l) { return a.y + row(l) * kFloatBytes; });
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeSpmv(const std::map<std::string, int64_t>& params, uint64_t seed) {
    const uint64_t n = param(params, "rows"), avg = param(params, "nnz_per_row"), cluster = param(params, "cluster");
    requireParam(avg <= n, "spmv", "nnz_per_row: " + std::to_string(avg) + " is more than rows (" + std::to_string(n) + ")");
    auto s = std::make_shared<Shared>();
    s->m = CsrMatrix::generate(n, avg, cluster == 1, seed);
    // The device CSR arrays, then x and y.
    DeviceAllocator mem;
    s->a.ptr = mem.allocate((n + 1) * kIntBytes);
    s->a.indices = mem.allocate(s->m.nnz() * kIntBytes);
    s->a.data = mem.allocateFloats(s->m.nnz());
    s->a.x = mem.allocateFloats(n);
    s->a.y = mem.allocateFloats(n);
    std::shared_ptr<const Shared> shared = s;
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel("spmv_csr_scalar_kernel", {static_cast<unsigned>(ceilDiv(n, kBlockThreads)), 1, 1},
                                        {kBlockThreads, 1, 1}, reg::kUsed, 0,
                                        [shared](const WarpThreads& t) { return spmvWarp(t, shared); }));
    return std::make_unique<BasicWorkload>("spmv", nlohmann::json(params), std::move(kernels));
}

} // namespace spmv_kernel

WorkloadInfo spmvWorkload() {
    using namespace spmv_kernel;
    return {"spmv",
            "SpMV, CSR scalar kernel (a row per thread) on a generated matrix with non-zeros clustered along "
            "rows (divergent, scattered x) or columns (uniform, broadcast x)",
            {{"rows", 8192, 32, 1 << 24, "matrix rows = columns"},
             {"nnz_per_row", 16, 1, 4096, "mean non-zeros per row (lengths uniform in 1 .. 2*mean-1)"},
             {"cluster", 0, 0, 1, "0: non-zeros clustered along rows, 1: along columns (shared by 32-row groups)"}},
            makeSpmv,
            "Bell & Garland spmv_csr_scalar_kernel (also SHOC spmv csr scalar)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
