// srad: Rodinia SRAD v2 (cuda/srad/srad_v2), speckle-reducing anisotropic diffusion over a
// rows x cols image in 16 x 16 blocks: per iteration srad_cuda_1 (gradients and diffusion
// coefficient) and srad_cuda_2 (divergence and image update). Both stage their inputs in shared
// memory behind __syncthreads:
//
//     srad_cuda_1: north[ty][tx] = J[index_n]; south[ty][tx] = J[index_s];
//                  if (by == 0) north[ty][tx] = J[BLOCK_SIZE*bx + tx];
//                  else if (by == gridDim.y-1) south[ty][tx] = J[<last row of the block row>];
//                  __syncthreads();
//                  west[ty][tx] = J[index_w]; east[ty][tx] = J[index_e];
//                  if (bx == 0) west[ty][tx] = J[...]; else if (bx == gridDim.x-1) east[ty][tx] = J[...];
//                  __syncthreads();
//                  temp[ty][tx] = J[index]; __syncthreads();
//                  jc = temp[ty][tx];
//                  if (ty == 0 && tx == 0) { n = north[ty][tx] - jc; s = temp[ty+1][tx] - jc; ... }  // nw
//                  else if ... ne, se, sw, n, e, s, w ... else { 4 neighbours from temp }          // 9 cases
//                  g2 = (n*n + s*s + w*w + e*e) / (jc*jc);  l = (n + s + w + e) / jc;
//                  num = (0.5*g2) - ((1.0/16.0)*(l*l)); den = 1 + (.25*l); qsqr = num/(den*den);
//                  den = (qsqr-q0sqr) / (q0sqr * (1+q0sqr)); c = 1.0 / (1.0+den);
//                  temp_result[ty][tx] = saturate(c); __syncthreads();
//                  C[index] = temp_result[ty][tx]; E[index] = e; W[index] = w; S[index] = s; N[index] = n;
//     srad_cuda_2: temp[ty][tx] = J[index]; __syncthreads();
//                  south_c[ty][tx] = C[index_s]; if (by == gridDim.y-1) south_c[ty][tx] = C[...]; __syncthreads();
//                  east_c[ty][tx] = C[index_e]; if (bx == gridDim.x-1) east_c[ty][tx] = C[...]; __syncthreads();
//                  c_cuda_temp[ty][tx] = C[index]; __syncthreads();
//                  cc = c_cuda_temp[ty][tx];
//                  se / e / s / else cases pick cs and ce from south_c, east_c or c_cuda_temp;
//                  d_sum = cn*N[index] + cs*S[index] + cw*W[index] + ce*E[index];
//                  c_cuda_result[ty][tx] = temp[ty][tx] + 0.25*lambda*d_sum; __syncthreads();
//                  J[index] = c_cuda_result[ty][tx];
//
// with index = cols*16*by + 16*bx + cols*ty + tx and index_n = ... + tx - cols (row above the
// block: outside the image for by = 0, read anyway as the source does), index_s = ... + cols*16 + tx,
// index_w = ... + cols*ty - 1, index_e = ... + cols*ty + 16. A warp holds two rows of a block
// (ty = 2w, 2w + 1): every global access is two 64-byte row segments; the border cases are
// branch-divergent within warps.
//
// Modelled SASS per warp. Guards and if/else chains narrow the mask (no branch instruction):
// each `else if` is one ISETP for the lanes still undecided, each case 4 LDS + 4 FADD for its
// lanes; a chain stops as soon as no lane is left. The arithmetic is a run of ALU and SFU
// instructions following the source, with the double-precision steps (0.5*g2, 1.0/(1.0+den):
// double literals) as F2F/DMUL/DFMA and the divisions expanded (BuiltinSupport.hpp):
//
//   srad_cuda_1: S2R x4, IMAD x5 (the five indices)
//     LD J[index_n], STS north; LD J[index_s], STS south; ISETP by==0 -> LD, STS | ISETP by==last -> LD, STS
//     BAR; LD J[index_w], STS west; LD J[index_e], STS east; ISETP bx==0 -> LD, STS | ISETP -> LD, STS
//     BAR; LD J[index], STS temp; BAR; LDS jc
//     the 9-case chain; arithmetic run (55 instructions, 5 of them SFU); STS temp_result; BAR
//     LDS temp_result; ST C, E, W, S, N; EXIT
//   srad_cuda_2: S2R x4, IMAD x3; LD J[index], STS temp; BAR; LD C[index_s], STS south_c;
//     ISETP by==last -> LD, STS; BAR; LD C[index_e], STS east_c; ISETP bx==last -> LD, STS; BAR;
//     LD C[index], STS c_cuda_temp; BAR; LDS cc; the 4-case chain (2 LDS per case);
//     LD N, S, W, E [index]; FMUL, FFMA x3; LDS temp; 7-instruction double update; STS; BAR;
//     LDS c_cuda_result; ST J[index]; EXIT
#include <array>
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

namespace srad_kernel {

constexpr unsigned kBlock = 16;  // BLOCK_SIZE
constexpr unsigned kTileBytes = kBlock * kBlock * kFloatBytes;

// g2, l, num, den, qsqr, den, c, saturate (see the header comment).
constexpr std::string_view kCoefficientMath = "AAAAASAAA" "AAASAAA" "AAAAA" "AA" "ASAAAAAAAAA" "AAASAAA"
                                              "AASAAAAAAAAA" "AA";
constexpr std::string_view kUpdateMath = "AAAAAAA";  // temp + 0.25*lambda*d_sum in double

namespace reg {
constexpr uint16_t kCtaX = 0, kCtaY = 1, kTidX = 2, kTidY = 3, kIndex = 4, kIndexN = 5, kIndexS = 6,
                   kIndexW = 7, kIndexE = 8, kPred = 9, kV = 10, kJc = 11, kN = 12, kS = 13, kW = 14, kE = 15,
                   kAcc = 16, kTmp = 17;
constexpr unsigned kUsed = 18;
} // namespace reg

// Shared arrays in declaration order, kernel 1 and kernel 2.
enum Tile1 : unsigned { kTemp, kTempResult, kNorth, kSouth, kEast, kWest, kTiles1 };
enum Tile2 : unsigned { kSouthC, kEastC, kCTemp, kCResult, kTemp2, kTiles2 };

struct Image {
    uint64_t j, c, e, w, s, n;  // J_cuda, C_cuda, E_C, W_C, S_C, N_C
    int64_t rows, cols;
};

// Lane geometry shared by both kernels.
struct Lanes {
    const WarpThreads& t;
    const Image& im;
    int64_t bx() const { return t.blockIdx().x; }
    int64_t by() const { return t.blockIdx().y; }
    int64_t tx(unsigned l) const { return t.threadIdx(l).x; }
    int64_t ty(unsigned l) const { return t.threadIdx(l).y; }
    int64_t corner() const { return im.cols * kBlock * by() + kBlock * bx(); }
    int64_t index(unsigned l) const { return corner() + im.cols * ty(l) + tx(l); }
    // Byte address of element `e` of the array at `base` (e may be -cols .. for the north halo).
    static uint64_t at(uint64_t base, int64_t e) { return base + uint64_t(e * int64_t(kFloatBytes)); }
    static uint64_t tile(unsigned which, int64_t row, int64_t col) {
        return which * kTileBytes + uint64_t((row * kBlock + col) * int64_t(kFloatBytes));
    }
};

// The 9-case neighbour selection of srad_cuda_1: per case, where n, s, w, e come from.
enum Src : uint8_t { FromNorth, FromSouth, FromWest, FromEast, Up, Down, Left, Right };
struct Case {
    int ty, tx;  // -1: any; otherwise the required threadIdx component
    std::array<Src, 4> src;
};
constexpr unsigned kLast = kBlock - 1;
constexpr std::array<Case, 9> kCases1{{
    {0, 0, {FromNorth, Down, FromWest, Right}},            // nw
    {0, kLast, {FromNorth, Down, Left, FromEast}},         // ne
    {kLast, kLast, {Up, FromSouth, Left, FromEast}},       // se
    {kLast, 0, {Up, FromSouth, FromWest, Right}},          // sw
    {0, -1, {FromNorth, Down, Left, Right}},               // n
    {-1, kLast, {Up, Down, Left, FromEast}},               // e
    {kLast, -1, {Up, FromSouth, Left, Right}},             // s
    {-1, 0, {Up, Down, FromWest, Right}},                  // w
    {-1, -1, {Up, Down, Left, Right}},                     // interior
}};
// srad_cuda_2: cs and ce for the se, e, s and interior cases (cn = cw = cc need no load).
constexpr std::array<Case, 4> kCases2{{
    {kLast, kLast, {FromSouth, FromEast, FromSouth, FromSouth}},
    {-1, kLast, {Down, FromEast, Down, Down}},
    {kLast, -1, {FromSouth, Right, FromSouth, FromSouth}},
    {-1, -1, {Down, Right, Down, Down}},
}};

bool matches(const Case& c, int64_t ty, int64_t tx) { return (c.ty < 0 || c.ty == ty) && (c.tx < 0 || c.tx == tx); }

// Shared address of a neighbour source for lane geometry (ty, tx), with the halo tiles of kernel 1
// or kernel 2.
uint64_t sourceAddr(Src s, int64_t ty, int64_t tx, bool second) {
    switch (s) {
    case FromNorth: return Lanes::tile(kNorth, ty, tx);
    case FromSouth: return Lanes::tile(second ? unsigned(kSouthC) : unsigned(kSouth), ty, tx);
    case FromWest: return Lanes::tile(kWest, ty, tx);
    case FromEast: return Lanes::tile(second ? unsigned(kEastC) : unsigned(kEast), ty, tx);
    case Up: return Lanes::tile(kTemp, ty - 1, tx);
    case Down: return Lanes::tile(second ? unsigned(kCTemp) : unsigned(kTemp), ty + 1, tx);
    case Left: return Lanes::tile(kTemp, ty, tx - 1);
    case Right: return Lanes::tile(second ? unsigned(kCTemp) : unsigned(kTemp), ty, tx + 1);
    }
    return 0;
}

// Kernel 1 static layout.
constexpr unsigned k1Prologue = 9;  // S2R x4, IMAD x5
enum K1 : unsigned {
    k1LdN = k1Prologue, k1StsN, k1LdS, k1StsS, k1IsetpBy0, k1LdBy0, k1StsBy0, k1IsetpByL, k1LdByL, k1StsByL,
    k1Bar1, k1LdW, k1StsW, k1LdE, k1StsE, k1IsetpBx0, k1LdBx0, k1StsBx0, k1IsetpBxL, k1LdBxL, k1StsBxL,
    k1Bar2, k1Ld, k1Sts, k1Bar3, k1LdsJc, k1Cases
};
constexpr unsigned k1CaseLen = 9;  // ISETP, 4 LDS, 4 FADD
constexpr unsigned k1Math = k1Cases + kCases1.size() * k1CaseLen;
enum K1Tail : unsigned {
    k1StsResult = k1Math + kCoefficientMath.size(), k1Bar4, k1LdsResult, k1StC, k1StE, k1StW, k1StS, k1StN, k1Exit
};

WarpProgram srad1Warp(WarpThreads t, Image im) {
    const Lanes g{t, im};
    const uint32_t all = t.existMask();
    const unsigned gx = t.gridDim().x, gy = t.gridDim().y;
    co_yield inst::alu(sassPc(0), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(1), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(2), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(3), all, {reg::kTidY}, {});
    for (unsigned q = 0; q < 5; ++q)
        co_yield inst::alu(sassPc(4 + q), all, {uint16_t(reg::kIndex + q)}, {reg::kCtaX, reg::kCtaY, reg::kTidX, reg::kTidY});

    auto ld = [&](unsigned slot, uint16_t idx, auto elem) {
        return inst::load(sassPc(slot), all, {reg::kV}, {idx}, kFloatBytes,
                          [&g, elem](unsigned l) { return Lanes::at(g.im.j, elem(l)); });
    };
    auto sts = [&](unsigned slot, unsigned which) {
        return inst::store(sassPc(slot), all, {reg::kTidX, reg::kV}, kFloatBytes,
                           [&g, which](unsigned l) { return Lanes::tile(which, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    };
    const int64_t cols = im.cols;
    co_yield ld(k1LdN, reg::kIndexN, [&g, cols](unsigned l) { return g.corner() + g.tx(l) - cols; });
    co_yield sts(k1StsN, kNorth);
    co_yield ld(k1LdS, reg::kIndexS, [&g, cols](unsigned l) { return g.corner() + cols * kBlock + g.tx(l); });
    co_yield sts(k1StsS, kSouth);
    co_yield inst::alu(sassPc(k1IsetpBy0), all, {reg::kPred}, {reg::kCtaY});
    if (g.by() == 0) {
        co_yield ld(k1LdBy0, reg::kTidX, [&g](unsigned l) { return kBlock * g.bx() + g.tx(l); });
        co_yield sts(k1StsBy0, kNorth);
    } else {
        co_yield inst::alu(sassPc(k1IsetpByL), all, {reg::kPred}, {reg::kCtaY});
        if (g.by() == int64_t(gy) - 1) {
            co_yield ld(k1LdByL, reg::kTidX, [&g, cols, gy](unsigned l) {
                return cols * kBlock * (int64_t(gy) - 1) + kBlock * g.bx() + cols * kLast + g.tx(l);
            });
            co_yield sts(k1StsByL, kSouth);
        }
    }
    co_yield inst::barrier(sassPc(k1Bar1), all);
    co_yield ld(k1LdW, reg::kIndexW, [&g, cols](unsigned l) { return g.corner() + cols * g.ty(l) - 1; });
    co_yield sts(k1StsW, kWest);
    co_yield ld(k1LdE, reg::kIndexE, [&g, cols](unsigned l) { return g.corner() + cols * g.ty(l) + kBlock; });
    co_yield sts(k1StsE, kEast);
    co_yield inst::alu(sassPc(k1IsetpBx0), all, {reg::kPred}, {reg::kCtaX});
    if (g.bx() == 0) {
        co_yield ld(k1LdBx0, reg::kTidY, [&g, cols](unsigned l) { return cols * kBlock * g.by() + cols * g.ty(l); });
        co_yield sts(k1StsBx0, kWest);
    } else {
        co_yield inst::alu(sassPc(k1IsetpBxL), all, {reg::kPred}, {reg::kCtaX});
        if (g.bx() == int64_t(gx) - 1) {
            co_yield ld(k1LdBxL, reg::kTidY, [&g, cols, gx](unsigned l) {
                return cols * kBlock * g.by() + kBlock * (int64_t(gx) - 1) + cols * g.ty(l) + kLast;
            });
            co_yield sts(k1StsBxL, kEast);
        }
    }
    co_yield inst::barrier(sassPc(k1Bar2), all);
    co_yield ld(k1Ld, reg::kIndex, [&g](unsigned l) { return g.index(l); });
    co_yield sts(k1Sts, kTemp);
    co_yield inst::barrier(sassPc(k1Bar3), all);
    co_yield inst::load(sassPc(k1LdsJc), all, {reg::kJc}, {reg::kTidX}, kFloatBytes,
                        [&g](unsigned l) { return Lanes::tile(kTemp, g.ty(l), g.tx(l)); }, MemSpace::Shared);

    uint32_t undecided = all;
    for (unsigned c = 0; c < kCases1.size() && undecided != 0; ++c) {
        const unsigned base = k1Cases + c * k1CaseLen;
        if (c + 1 < kCases1.size()) co_yield inst::alu(sassPc(base), undecided, {reg::kPred}, {reg::kTidX, reg::kTidY});
        const uint32_t mine = t.lanesWhere(undecided, [&](unsigned l) { return matches(kCases1[c], g.ty(l), g.tx(l)); });
        undecided &= ~mine;
        if (mine == 0) continue;
        for (unsigned q = 0; q < 4; ++q) {
            const Src src = kCases1[c].src[q];
            co_yield inst::load(sassPc(base + 1 + q), mine, {uint16_t(reg::kN + q)}, {reg::kTidX}, kFloatBytes,
                                [&g, src](unsigned l) { return sourceAddr(src, g.ty(l), g.tx(l), false); },
                                MemSpace::Shared);
        }
        for (unsigned q = 0; q < 4; ++q)
            co_yield inst::alu(sassPc(base + 5 + q), mine, {uint16_t(reg::kN + q)}, {uint16_t(reg::kN + q), reg::kJc});
    }
    for (unsigned q = 0; q < kCoefficientMath.size(); ++q)
        co_yield inst::Plain{sassPc(k1Math + q), arithOp(kCoefficientMath[q]), all, {reg::kAcc},
                             {reg::kAcc, uint16_t(reg::kN + q % 4), reg::kJc}};
    co_yield inst::store(sassPc(k1StsResult), all, {reg::kTidX, reg::kAcc}, kFloatBytes,
                         [&g](unsigned l) { return Lanes::tile(kTempResult, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    co_yield inst::barrier(sassPc(k1Bar4), all);
    co_yield inst::load(sassPc(k1LdsResult), all, {reg::kTmp}, {reg::kTidX}, kFloatBytes,
                        [&g](unsigned l) { return Lanes::tile(kTempResult, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    const std::array<std::pair<uint64_t, uint16_t>, 5> outs{
        {{im.c, reg::kTmp}, {im.e, reg::kE}, {im.w, reg::kW}, {im.s, reg::kS}, {im.n, reg::kN}}};
    for (unsigned q = 0; q < outs.size(); ++q) {
        const uint64_t base = outs[q].first;
        co_yield inst::store(sassPc(k1StC + q), all, {reg::kIndex, outs[q].second}, kFloatBytes,
                             [&g, base](unsigned l) { return Lanes::at(base, g.index(l)); });
    }
    co_yield inst::exit(sassPc(k1Exit), all);
}

// Kernel 2 static layout.
constexpr unsigned k2Prologue = 7;  // S2R x4, IMAD x3
enum K2 : unsigned {
    k2LdJ = k2Prologue, k2StsTemp, k2Bar1, k2LdS, k2StsS, k2IsetpByL, k2LdByL, k2StsByL, k2Bar2,
    k2LdE, k2StsE, k2IsetpBxL, k2LdBxL, k2StsBxL, k2Bar3, k2LdC, k2StsC, k2Bar4, k2LdsCc, k2Cases
};
constexpr unsigned k2CaseLen = 3;  // ISETP, LDS cs, LDS ce
enum K2Tail : unsigned {
    k2LdN = k2Cases + kCases2.size() * k2CaseLen, k2LdS2, k2LdW, k2LdE2, k2Fmul, k2Ffma1, k2Ffma2, k2Ffma3, k2LdsTemp,
    k2Math, k2StsResult = k2Math + kUpdateMath.size(), k2Bar5, k2LdsResult, k2StJ, k2Exit
};

WarpProgram srad2Warp(WarpThreads t, Image im) {
    const Lanes g{t, im};
    const uint32_t all = t.existMask();
    const unsigned gx = t.gridDim().x, gy = t.gridDim().y;
    const int64_t cols = im.cols;
    co_yield inst::alu(sassPc(0), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(1), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(2), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(3), all, {reg::kTidY}, {});
    // index, index_s, index_e in r4, r5, r6.
    for (unsigned q = 0; q < 3; ++q)
        co_yield inst::alu(sassPc(4 + q), all, {uint16_t(reg::kIndex + q)}, {reg::kCtaX, reg::kCtaY, reg::kTidX, reg::kTidY});
    auto ld = [&](unsigned slot, uint64_t base, uint16_t idx, auto elem) {
        return inst::load(sassPc(slot), all, {reg::kV}, {idx}, kFloatBytes,
                          [base, elem](unsigned l) { return Lanes::at(base, elem(l)); });
    };
    auto sts = [&](unsigned slot, unsigned which, uint16_t value) {
        return inst::store(sassPc(slot), all, {reg::kTidX, value}, kFloatBytes,
                           [&g, which](unsigned l) { return Lanes::tile(which, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    };
    auto index = [&g](unsigned l) { return g.index(l); };
    co_yield ld(k2LdJ, im.j, reg::kIndex, index);
    co_yield sts(k2StsTemp, kTemp2, reg::kV);
    co_yield inst::barrier(sassPc(k2Bar1), all);
    co_yield ld(k2LdS, im.c, reg::kIndexN, [&g, cols](unsigned l) { return g.corner() + cols * kBlock + g.tx(l); });
    co_yield sts(k2StsS, kSouthC, reg::kV);
    co_yield inst::alu(sassPc(k2IsetpByL), all, {reg::kPred}, {reg::kCtaY});
    if (g.by() == int64_t(gy) - 1) {
        co_yield ld(k2LdByL, im.c, reg::kTidX, [&g, cols, gy](unsigned l) {
            return cols * kBlock * (int64_t(gy) - 1) + kBlock * g.bx() + cols * kLast + g.tx(l);
        });
        co_yield sts(k2StsByL, kSouthC, reg::kV);
    }
    co_yield inst::barrier(sassPc(k2Bar2), all);
    co_yield ld(k2LdE, im.c, reg::kIndexS, [&g, cols](unsigned l) { return g.corner() + cols * g.ty(l) + kBlock; });
    co_yield sts(k2StsE, kEastC, reg::kV);
    co_yield inst::alu(sassPc(k2IsetpBxL), all, {reg::kPred}, {reg::kCtaX});
    if (g.bx() == int64_t(gx) - 1) {
        co_yield ld(k2LdBxL, im.c, reg::kTidY, [&g, cols, gx](unsigned l) {
            return cols * kBlock * g.by() + kBlock * (int64_t(gx) - 1) + cols * g.ty(l) + kLast;
        });
        co_yield sts(k2StsBxL, kEastC, reg::kV);
    }
    co_yield inst::barrier(sassPc(k2Bar3), all);
    co_yield ld(k2LdC, im.c, reg::kIndex, index);
    co_yield sts(k2StsC, kCTemp, reg::kV);
    co_yield inst::barrier(sassPc(k2Bar4), all);
    co_yield inst::load(sassPc(k2LdsCc), all, {reg::kJc}, {reg::kTidX}, kFloatBytes,
                        [&g](unsigned l) { return Lanes::tile(kCTemp, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    uint32_t undecided = all;
    for (unsigned c = 0; c < kCases2.size() && undecided != 0; ++c) {
        const unsigned base = k2Cases + c * k2CaseLen;
        if (c + 1 < kCases2.size()) co_yield inst::alu(sassPc(base), undecided, {reg::kPred}, {reg::kTidX, reg::kTidY});
        const uint32_t mine = t.lanesWhere(undecided, [&](unsigned l) { return matches(kCases2[c], g.ty(l), g.tx(l)); });
        undecided &= ~mine;
        if (mine == 0) continue;
        for (unsigned q = 0; q < 2; ++q) {
            const Src src = kCases2[c].src[q];
            co_yield inst::load(sassPc(base + 1 + q), mine, {uint16_t(reg::kS + q)}, {reg::kTidX}, kFloatBytes,
                                [&g, src](unsigned l) { return sourceAddr(src, g.ty(l), g.tx(l), true); },
                                MemSpace::Shared);
        }
    }
    const std::array<uint64_t, 4> dirs{im.n, im.s, im.w, im.e};
    for (unsigned q = 0; q < dirs.size(); ++q) {
        const uint64_t base = dirs[q];
        co_yield inst::load(sassPc(k2LdN + q), all, {uint16_t(reg::kN + q)}, {reg::kIndex}, kFloatBytes,
                            [&g, base](unsigned l) { return Lanes::at(base, g.index(l)); });
    }
    co_yield inst::alu(sassPc(k2Fmul), all, {reg::kAcc}, {reg::kJc, reg::kN});
    for (unsigned q = 1; q < 4; ++q)
        co_yield inst::alu(sassPc(k2Fmul + q), all, {reg::kAcc}, {uint16_t(reg::kN + q), reg::kAcc});
    co_yield inst::load(sassPc(k2LdsTemp), all, {reg::kTmp}, {reg::kTidX}, kFloatBytes,
                        [&g](unsigned l) { return Lanes::tile(kTemp2, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    for (unsigned q = 0; q < kUpdateMath.size(); ++q)
        co_yield inst::Plain{sassPc(k2Math + q), arithOp(kUpdateMath[q]), all, {reg::kAcc}, {reg::kAcc, reg::kTmp}};
    co_yield inst::store(sassPc(k2StsResult), all, {reg::kTidX, reg::kAcc}, kFloatBytes,
                         [&g](unsigned l) { return Lanes::tile(kCResult, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    co_yield inst::barrier(sassPc(k2Bar5), all);
    co_yield inst::load(sassPc(k2LdsResult), all, {reg::kTmp}, {reg::kTidX}, kFloatBytes,
                        [&g](unsigned l) { return Lanes::tile(kCResult, g.ty(l), g.tx(l)); }, MemSpace::Shared);
    co_yield inst::store(sassPc(k2StJ), all, {reg::kIndex, reg::kTmp}, kFloatBytes,
                         [&g](unsigned l) { return Lanes::at(g.im.j, g.index(l)); });
    co_yield inst::exit(sassPc(k2Exit), all);
}

std::unique_ptr<Workload> makeSrad(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t rows = param(params, "rows"), cols = param(params, "cols"), iterations = param(params, "iterations");
    requireParam(rows % kBlock == 0 && cols % kBlock == 0, "srad",
                 "rows and cols must be multiples of 16 (BLOCK_SIZE), got " + std::to_string(rows) + " x " +
                     std::to_string(cols));
    // srad.cu's cudaMalloc order.
    DeviceAllocator mem;
    Image im;
    im.j = mem.allocateFloats(rows * cols);
    im.c = mem.allocateFloats(rows * cols);
    im.e = mem.allocateFloats(rows * cols);
    im.w = mem.allocateFloats(rows * cols);
    im.s = mem.allocateFloats(rows * cols);
    im.n = mem.allocateFloats(rows * cols);
    im.rows = int64_t(rows);
    im.cols = int64_t(cols);
    const Dim3 grid{static_cast<unsigned>(cols / kBlock), static_cast<unsigned>(rows / kBlock), 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (uint64_t it = 0; it < iterations; ++it) {
        kernels.push_back(makeProgramKernel("srad_cuda_1", grid, {kBlock, kBlock, 1}, reg::kUsed, kTiles1 * kTileBytes,
                                            [im](const WarpThreads& t) { return srad1Warp(t, im); }));
        kernels.push_back(makeProgramKernel("srad_cuda_2", grid, {kBlock, kBlock, 1}, reg::kUsed, kTiles2 * kTileBytes,
                                            [im](const WarpThreads& t) { return srad2Warp(t, im); }));
    }
    return std::make_unique<BasicWorkload>("srad", nlohmann::json(params), std::move(kernels));
}

} // namespace srad_kernel

WorkloadInfo sradWorkload() {
    using namespace srad_kernel;
    return {"srad",
            "Rodinia SRAD v2: two 16x16-tiled kernels per iteration, halo loads staged in shared memory "
            "behind 4-5 barriers, divergent border cases",
            {{"rows", 256, 16, 8192, "image rows, a multiple of 16 (Rodinia run: 2048)"},
             {"cols", 256, 16, 8192, "image columns, a multiple of 16 (Rodinia run: 2048)"},
             {"iterations", 1, 1, 1000, "diffusion iterations, two kernels each (Rodinia run: 2)"}},
            makeSrad,
            "Rodinia 3.1, srad_v2 (cuda/srad/srad_v2: srad_kernel.cu)",
            WorkloadClass::BarrierHeavy};
}

} // namespace gpusim
