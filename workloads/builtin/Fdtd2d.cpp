// fdtd2d: PolyBench/GPU FDTD-2D, a 2-D finite-difference time-domain step as three kernels per
// time step (tmax steps), one thread per grid point in 32 x 8 blocks over an nx x ny grid:
//
//     __global__ void fdtd_step1_kernel(float* _fict_, float* ex, float* ey, float* hz, int t) {
//         int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
//         if ((i < NX) && (j < NY)) {
//             if (i == 0) ey[i * NY + j] = _fict_[t];
//             else ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
//         }
//     }
//     __global__ void fdtd_step2_kernel(float* ex, float* ey, float* hz, int t) {
//         ... if ((i < NX) && (j < NY) && (j > 0))
//             ex[i * (NY + 1) + j] = ex[i * (NY + 1) + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
//     }
//     __global__ void fdtd_step3_kernel(float* ex, float* ey, float* hz, int t) {
//         ... if ((i < NX) && (j < NY))
//             hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * (NY + 1) + (j + 1)] - ex[i * (NY + 1) + j]
//                                                       + ey[(i + 1) * NY + j] - ey[i * NY + j]);
//     }
//
// Every access is a coalesced row segment; ex rows are NY + 1 floats long, so its segments
// straddle lines.
//
// Modelled SASS per warp (prologue in every kernel: S2R CTAID.X, CTAID.Y, TID.X, TID.Y, IMAD j,
// IMAD i, ISETP, ISETP; all existing lanes):
//
//   step1  0x80 ISETP (i == 0)
//          lanes with i == 0:  0x90 LD r7 <- _fict_[t] (broadcast)   0xa0 ST ey[i][j] <- r7
//          other lanes:        0xb0 LD r8 <- ey[i][j]   0xc0 LD r9 <- hz[i][j]   0xd0 LD r10 <- hz[i-1][j]
//                              0xe0 FADD r9 <- r9, r10  0xf0 FFMA r8 <- r9, r8   0x100 ST ey[i][j] <- r8
//          0x110 EXIT         (a warp is one row: 12 instructions in row 0, 16 in other rows in
//                             range, 9 out of range)
//   step2  0x80 ISETP (j > 0)
//          lanes with j > 0:   0x90 LD ex[i][j]  0xa0 LD hz[i][j]  0xb0 LD hz[i][j-1]  0xc0 FADD
//                              0xd0 FFMA  0xe0 ST ex[i][j]
//          0xf0 EXIT                                (16 instructions in range, else 9)
//   step3  lanes in range:     0x80 LD hz[i][j]  0x90 LD ex[i][j+1]  0xa0 LD ex[i][j]
//                              0xb0 LD ey[i+1][j]  0xc0 LD ey[i][j]  0xd0 FADD  0xe0 FADD  0xf0 FADD
//                              0x100 FFMA  0x110 ST hz[i][j]
//          0x120 EXIT                               (19 instructions, else 9)
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace fdtd2d_kernel {

constexpr unsigned kBlockX = 32, kBlockY = 8;

namespace reg {
constexpr uint16_t kJ = 4, kI = 5, kPred = 6, kV0 = 7, kV1 = 8,
                   kV2 = 9, kV3 = 10, kV4 = 11, kV5 = 12;
constexpr unsigned kUsed = 13;
} // namespace reg

struct Grid {
    uint64_t fict, ex, ey, hz;
    uint64_t nx, ny;
};

// Every step kernel starts with the 2-D index and bounds check (KernelBuilder.hpp).
constexpr unsigned kPrologueLength = kIndex2dSlots + kBoundsCheck2dSlots;
constexpr Index2dRegs kIndex{.x = reg::kJ, .y = reg::kI};

WarpProgram step1Warp(WarpThreads t, Grid g, uint64_t step) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex2d(all, kIndex)) co_yield op;
    for (const auto& op : boundsCheck2d(all, reg::kPred, kIndex)) co_yield op;
    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalY(l) < g.nx && t.globalX(l) < g.ny; });
    if (in != 0) {
        const unsigned b = kPrologueLength;
        co_yield inst::alu(sassPc(b), in, {reg::kPred}, {reg::kI});
        auto at = [&](uint64_t base, uint64_t di) {  // element [i - di][j] of an NY-wide array
            return [&t, base, di, &g](unsigned l) { return base + ((t.globalY(l) - di) * g.ny + t.globalX(l)) * kFloatBytes; };
        };
        const uint32_t top = t.lanesWhere(in, [&](unsigned l) { return t.globalY(l) == 0; });
        const uint32_t rest = in & ~top;
        if (top != 0) {
            co_yield inst::load(sassPc(b + 1), top, {reg::kV0}, {}, kFloatBytes,
                                [&](unsigned) { return g.fict + step * kFloatBytes; });
            co_yield inst::store(sassPc(b + 2), top, {reg::kJ, reg::kI, reg::kV0}, kFloatBytes, at(g.ey, 0));
        }
        if (rest != 0) {
            co_yield inst::load(sassPc(b + 3), rest, {reg::kV1}, {reg::kJ, reg::kI}, kFloatBytes, at(g.ey, 0));
            co_yield inst::load(sassPc(b + 4), rest, {reg::kV2}, {reg::kJ, reg::kI}, kFloatBytes, at(g.hz, 0));
            co_yield inst::load(sassPc(b + 5), rest, {reg::kV3}, {reg::kJ, reg::kI}, kFloatBytes, at(g.hz, 1));
            co_yield inst::alu(sassPc(b + 6), rest, {reg::kV2}, {reg::kV2, reg::kV3});
            co_yield inst::alu(sassPc(b + 7), rest, {reg::kV1}, {reg::kV2, reg::kV1});
            co_yield inst::store(sassPc(b + 8), rest, {reg::kJ, reg::kI, reg::kV1}, kFloatBytes, at(g.ey, 0));
        }
    }
    co_yield inst::exit(sassPc(kPrologueLength + 9), all);
}

WarpProgram step2Warp(WarpThreads t, Grid g) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex2d(all, kIndex)) co_yield op;
    for (const auto& op : boundsCheck2d(all, reg::kPred, kIndex)) co_yield op;
    const unsigned b = kPrologueLength;
    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalY(l) < g.nx && t.globalX(l) < g.ny; });
    if (in != 0) co_yield inst::alu(sassPc(b), in, {reg::kPred}, {reg::kJ, reg::kPred});
    const uint32_t m = t.lanesWhere(in, [&](unsigned l) { return t.globalX(l) > 0; });
    if (m != 0) {
        auto ex = [&](unsigned l) { return g.ex + (t.globalY(l) * (g.ny + 1) + t.globalX(l)) * kFloatBytes; };
        co_yield inst::load(sassPc(b + 1), m, {reg::kV0}, {reg::kJ, reg::kI}, kFloatBytes, ex);
        co_yield inst::load(sassPc(b + 2), m, {reg::kV1}, {reg::kJ, reg::kI}, kFloatBytes,
                            [&](unsigned l) { return g.hz + (t.globalY(l) * g.ny + t.globalX(l)) * kFloatBytes; });
        co_yield inst::load(sassPc(b + 3), m, {reg::kV2}, {reg::kJ, reg::kI}, kFloatBytes,
                            [&](unsigned l) { return g.hz + (t.globalY(l) * g.ny + t.globalX(l) - 1) * kFloatBytes; });
        co_yield inst::alu(sassPc(b + 4), m, {reg::kV1}, {reg::kV1, reg::kV2});
        co_yield inst::alu(sassPc(b + 5), m, {reg::kV0}, {reg::kV1, reg::kV0});
        co_yield inst::store(sassPc(b + 6), m, {reg::kJ, reg::kI, reg::kV0}, kFloatBytes, ex);
    }
    co_yield inst::exit(sassPc(b + 7), all);
}

WarpProgram step3Warp(WarpThreads t, Grid g) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex2d(all, kIndex)) co_yield op;
    for (const auto& op : boundsCheck2d(all, reg::kPred, kIndex)) co_yield op;
    const unsigned b = kPrologueLength;
    const uint32_t m = t.lanesWhere([&](unsigned l) { return t.globalY(l) < g.nx && t.globalX(l) < g.ny; });
    if (m != 0) {
        auto hz = [&](unsigned l) { return g.hz + (t.globalY(l) * g.ny + t.globalX(l)) * kFloatBytes; };
        auto ex = [&](uint64_t dj) {
            return [&t, &g, dj](unsigned l) { return g.ex + (t.globalY(l) * (g.ny + 1) + t.globalX(l) + dj) * kFloatBytes; };
        };
        auto ey = [&](uint64_t di) {
            return [&t, &g, di](unsigned l) { return g.ey + ((t.globalY(l) + di) * g.ny + t.globalX(l)) * kFloatBytes; };
        };
        co_yield inst::load(sassPc(b), m, {reg::kV0}, {reg::kJ, reg::kI}, kFloatBytes, hz);
        co_yield inst::load(sassPc(b + 1), m, {reg::kV1}, {reg::kJ, reg::kI}, kFloatBytes, ex(1));
        co_yield inst::load(sassPc(b + 2), m, {reg::kV2}, {reg::kJ, reg::kI}, kFloatBytes, ex(0));
        co_yield inst::load(sassPc(b + 3), m, {reg::kV3}, {reg::kJ, reg::kI}, kFloatBytes, ey(1));
        co_yield inst::load(sassPc(b + 4), m, {reg::kV4}, {reg::kJ, reg::kI}, kFloatBytes, ey(0));
        co_yield inst::alu(sassPc(b + 5), m, {reg::kV5}, {reg::kV1, reg::kV2});
        co_yield inst::alu(sassPc(b + 6), m, {reg::kV5}, {reg::kV5, reg::kV3});
        co_yield inst::alu(sassPc(b + 7), m, {reg::kV5}, {reg::kV5, reg::kV4});
        co_yield inst::alu(sassPc(b + 8), m, {reg::kV0}, {reg::kV5, reg::kV0});
        co_yield inst::store(sassPc(b + 9), m, {reg::kJ, reg::kI, reg::kV0}, kFloatBytes, hz);
    }
    co_yield inst::exit(sassPc(b + 10), all);
}

std::unique_ptr<Workload> makeFdtd2d(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t nx = param(params, "nx"), ny = param(params, "ny"), tmax = param(params, "tmax");
    // fdtdCuda's cudaMalloc order.
    DeviceAllocator mem;
    Grid g;
    g.fict = mem.allocateFloats(tmax);
    g.ex = mem.allocateFloats(nx * (ny + 1));
    g.ey = mem.allocateFloats((nx + 1) * ny);
    g.hz = mem.allocateFloats(nx * ny);
    g.nx = nx;
    g.ny = ny;
    const Dim3 grid{static_cast<unsigned>(ceilDiv(ny, kBlockX)), static_cast<unsigned>(ceilDiv(nx, kBlockY)), 1};
    const Dim3 block{kBlockX, kBlockY, 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (uint64_t step = 0; step < tmax; ++step) {
        kernels.push_back(makeProgramKernel("fdtd_step1_kernel", grid, block, reg::kUsed, 0,
                                            [g, step](const WarpThreads& t) { return step1Warp(t, g, step); }));
        kernels.push_back(makeProgramKernel("fdtd_step2_kernel", grid, block, reg::kUsed, 0,
                                            [g](const WarpThreads& t) { return step2Warp(t, g); }));
        kernels.push_back(makeProgramKernel("fdtd_step3_kernel", grid, block, reg::kUsed, 0,
                                            [g](const WarpThreads& t) { return step3Warp(t, g); }));
    }
    return std::make_unique<BasicWorkload>("fdtd2d", nlohmann::json(params), std::move(kernels));
}

} // namespace fdtd2d_kernel

WorkloadInfo fdtd2dWorkload() {
    using namespace fdtd2d_kernel;
    return {"fdtd2d",
            "PolyBench/GPU FDTD-2D, three coalesced stencil kernels per time step",
            {{"nx", 256, 8, 8192, "grid rows NX (PolyBench/GPU default 2048)"},
             {"ny", 256, 32, 8192, "grid columns NY (PolyBench/GPU default 2048)"},
             {"tmax", 4, 1, 1000, "time steps, 3 kernels each (PolyBench/GPU default 500)"}},
            makeFdtd2d,
            "PolyBench/GPU 1.0, FDTD-2D (fdtd2d.cu)",
            WorkloadClass::Coherent};
}

} // namespace gpusim
