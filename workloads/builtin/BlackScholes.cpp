// blackscholes: the CUDA SDK's BlackScholes, European call and put prices for optN options, a
// grid-stride loop over options with the fast-math intrinsics (SFU-heavy):
//
//     __device__ inline float cndGPU(float d) {
//         float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
//         float cnd = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
//         if (d > 0) cnd = 1.0f - cnd;
//         return cnd;
//     }
//     __device__ inline void BlackScholesBodyGPU(float& CallResult, float& PutResult, float S, float X,
//                                                float T, float R, float V) {
//         float sqrtT = __fdividef(1.0F, rsqrtf(T));
//         float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
//         float d2 = d1 - V * sqrtT;
//         float CNDD1 = cndGPU(d1), CNDD2 = cndGPU(d2);
//         float expRT = __expf(-R * T);
//         CallResult = S * CNDD1 - X * expRT * CNDD2;
//         PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
//     }
//     __global__ void BlackScholesGPU(float* d_CallResult, float* d_PutResult, float* d_StockPrice,
//                                     float* d_OptionStrike, float* d_OptionYears, float Riskfree,
//                                     float Volatility, int optN) {
//         const int tid = blockDim.x * blockIdx.x + threadIdx.x;
//         const int THREAD_N = blockDim.x * gridDim.x;
//         for (int opt = tid; opt < optN; opt += THREAD_N)
//             BlackScholesBodyGPU(d_CallResult[opt], d_PutResult[opt], d_StockPrice[opt],
//                                 d_OptionStrike[opt], d_OptionYears[opt], Riskfree, Volatility);
//     }
//
// Launched <<<480, 128>>> (the SDK's fixed grid), NUM_ITERATIONS times in the SDK's timing loop.
// Every access is coalesced; per option 10 special-function instructions (RSQ, 5 RCP, LG2, 3 EX2)
// among 50 ALU instructions.
//
// Modelled SASS per warp:
//
//   0x00 S2R CTAID.X  0x10 S2R TID.X  0x20 IMAD tid  0x30 IMAD THREAD_N  0x40 ISETP opt < optN
//   loop over the lane's options (lanes with opt < optN):
//     0x50 LD S[opt]  0x60 LD X[opt]  0x70 LD T[opt]
//     0x80 .. 0x430  the body as a dependent run of 60 instructions:
//        sqrtT  MUFU.RSQ, MUFU.RCP, FMUL
//        d1     S / X (MUFU.RCP + 3 FFMA), __logf (MUFU.LG2, FMUL), FMUL, FFMA, FFMA, FMUL,
//               __fdividef (MUFU.RCP, FMUL)
//        d2     FADD
//        cnd x2 FFMA, MUFU.RCP, FMUL; FMUL, FMUL; __expf (FMUL, MUFU.EX2); 5 FFMA (polynomial);
//               FMUL, FMUL; FSETP, FADD, SEL
//        expRT  FMUL, FMUL, MUFU.EX2;  call FMUL, FMUL, FFMA;  put FADD, FADD, FMUL, FFMA
//     0x440 ST Call[opt]  0x450 ST Put[opt]  0x460 IADD opt  0x470 ISETP  0x480 BRA
//   0x490 EXIT
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace black_scholes_kernel {

constexpr unsigned kBlockThreads = 128;
// sqrtT, d1, d2, cnd(d1), cnd(d2), expRT, call, put (see the header comment).
constexpr std::string_view kCnd = "ASA" "AA" "AS" "AAAAA" "AA" "AAA";
constexpr std::string_view kSqrtT = "SSA", kD1 = "SAAA" "SA" "AAAA" "SA", kD2 = "A", kExpRT = "AAS",
                           kCall = "AAA", kPut = "AAAA";

namespace reg {
constexpr uint16_t kCta = 0, kTidX = 1, kTid = 2, kStride = 3, kPred = 4, kS = 5, kX = 6, kT = 7, kAcc = 8,
                   kCall = 9, kPut = 10, kOpt = 11;
constexpr unsigned kUsed = 12;
} // namespace reg

constexpr unsigned kBodyLength = unsigned(kSqrtT.size() + kD1.size() + kD2.size() + 2 * kCnd.size() + kExpRT.size() +
                                          kCall.size() + kPut.size());
enum Slot : unsigned {
    kS2rCta, kS2rTid, kImadTid, kImadStride, kIsetp, kLdS, kLdX, kLdT, kBody,
    kStCall = kBody + kBodyLength, kStPut, kIadd, kIsetpLoop, kBra, kExit
};

struct Options {
    uint64_t call, put, stock, strike, years, optN;
};

WarpProgram blackScholesWarp(WarpThreads t, Options o) {
    const uint32_t all = t.existMask();
    const uint64_t threads = uint64_t(t.blockDim().x) * t.gridDim().x;
    co_yield inst::alu(sassPc(kS2rCta), all, {reg::kCta}, {});
    co_yield inst::alu(sassPc(kS2rTid), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(kImadTid), all, {reg::kTid}, {reg::kCta, reg::kTidX});
    co_yield inst::alu(sassPc(kImadStride), all, {reg::kStride}, {});
    co_yield inst::alu(sassPc(kIsetp), all, {reg::kPred}, {reg::kTid});
    const std::string_view parts[] = {kSqrtT, kD1, kD2, kCnd, kCnd, kExpRT, kCall, kPut};
    for (uint64_t round = 0;; ++round) {
        const uint32_t live = t.lanesWhere([&](unsigned l) { return t.globalX(l) + round * threads < o.optN; });
        if (live == 0) break;
        auto at = [&](uint64_t base) {
            return [&t, base, round, threads](unsigned l) { return base + (t.globalX(l) + round * threads) * kFloatBytes; };
        };
        co_yield inst::load(sassPc(kLdS), live, {reg::kS}, {reg::kOpt}, kFloatBytes, at(o.stock));
        co_yield inst::load(sassPc(kLdX), live, {reg::kX}, {reg::kOpt}, kFloatBytes, at(o.strike));
        co_yield inst::load(sassPc(kLdT), live, {reg::kT}, {reg::kOpt}, kFloatBytes, at(o.years));
        unsigned pc = kBody;
        for (std::string_view part : parts)
            for (char c : part) {
                co_yield inst::Plain{sassPc(pc), arithOp(c), live, {reg::kAcc}, {reg::kAcc, reg::kS, reg::kX, reg::kT}};
                ++pc;
            }
        co_yield inst::store(sassPc(kStCall), live, {reg::kOpt, reg::kAcc}, kFloatBytes, at(o.call));
        co_yield inst::store(sassPc(kStPut), live, {reg::kOpt, reg::kAcc}, kFloatBytes, at(o.put));
        co_yield inst::alu(sassPc(kIadd), live, {reg::kOpt}, {reg::kOpt, reg::kStride});
        co_yield inst::alu(sassPc(kIsetpLoop), live, {reg::kPred}, {reg::kOpt});
        co_yield inst::alu(sassPc(kBra), live, {}, {reg::kPred});
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeBlackScholes(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t optN = param(params, "options"), blocks = param(params, "blocks"), launches = param(params, "launches");
    // main()'s cudaMalloc order.
    DeviceAllocator mem;
    Options o;
    o.call = mem.allocateFloats(optN);
    o.put = mem.allocateFloats(optN);
    o.stock = mem.allocateFloats(optN);
    o.strike = mem.allocateFloats(optN);
    o.years = mem.allocateFloats(optN);
    o.optN = optN;
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (uint64_t i = 0; i < launches; ++i)
        kernels.push_back(makeProgramKernel("BlackScholesGPU", {static_cast<unsigned>(blocks), 1, 1}, {kBlockThreads, 1, 1},
                                            reg::kUsed, 0, [o](const WarpThreads& t) { return blackScholesWarp(t, o); }));
    return std::make_unique<BasicWorkload>("blackscholes", nlohmann::json(params), std::move(kernels));
}

} // namespace black_scholes_kernel

WorkloadInfo blackScholesWorkload() {
    using namespace black_scholes_kernel;
    return {"blackscholes",
            "CUDA SDK BlackScholes: grid-stride loop over options, 10 SFU and 50 ALU instructions per option, "
            "coalesced loads and stores",
            {{"options", 491520, 1, 1 << 26, "options optN (SDK: 4000000)"},
             {"blocks", 480, 1, 65535, "grid size; 128 threads per block (SDK: 480)"},
             {"launches", 1, 1, 1000, "kernel launches (SDK timing loop: 512)"}},
            makeBlackScholes,
            "CUDA SDK, BlackScholes (BlackScholes_kernel.cuh)",
            WorkloadClass::Compute};
}

} // namespace gpusim
