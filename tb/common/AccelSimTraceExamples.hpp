#pragma once
// Kernels for the generated-trace tests (AccelSimTraceGenerator.hpp), with their counts worked
// out here once for the unit and the integration tests.
//
// exampleKernel(layout, id): grid (2,1,1), block (40,1,1): 2 CTAs of 2 warps; warp 0 has all 32
// lanes, warp 1 the 8 threads 32..39 (mask 000000ff). Every warp runs 9 instructions:
//   0x00  S2R R1                     (named registers: S2UR UR4)
//   0x10  IMAD R10 <- R1, R3, RZ     (named: R10 <- UR4, R3, RZ)
//   0x20  ISETP <- R10, RZ           (named: P0 <- R10, URZ, PT)
//   0x30  LDG.E R4 <- [R2]           lanes 4 bytes apart from a 128-byte line start: mode 1
//                                    (mode 0 without compression); 1 line for either warp
//   0x40  LDG.E.64 R6 <- [R2]        lanes 128 bytes apart, lane 1 8 bytes further: mode 2 (the
//                                    step changes); a line per lane: 32 (warp 0), 8 (warp 1)
//   0x50  STG.E.U8 [R2], R4          the first lane only (a single lane is mode 2 without a
//                                    delta); 1 byte (U8) at +0x3000, 1 line
//   0x60  MOV R12 <- RZ              (named: UPLOP3.LUT UP1 <- UPT, UPT, UP0)
//   0x70  BRA                        immediates 112 and -1 where the layout prints them
//   0x80  EXIT
// Per CTA: 18 warp instructions; global read lines (1 + 32) + (1 + 8) = 42; write lines 2.
// Addresses are distinct for every kernel id, CTA and warp (kernel id << 24 | CTA << 16 |
// warp << 14, above 0x10000000; the loads at +0 and +0x1000 .. +0x1fff, the store at +0x3000),
// so no two accesses share a line.
#include "tb/common/AccelSimTraceGenerator.hpp"

namespace gpusim::tb::accelsim {

inline constexpr unsigned kExampleInstsPerCta = 18, kExampleReadLinesPerCta = 42, kExampleWriteLinesPerCta = 2;

inline uint64_t exampleBase(unsigned kernelId, unsigned cta, unsigned warp) {
    return 0x10000000ull + (uint64_t(kernelId) << 24) + (uint64_t(cta) << 16) + (uint64_t(warp) << 14);
}

inline Warp exampleWarp(const Layout& lay, unsigned kernelId, unsigned cta, unsigned warp) {
    const bool named = lay.regs == RegisterStyle::Named;
    const uint32_t mask = warp == 0 ? 0xffffffffu : 0x000000ffu;
    const uint64_t base = exampleBase(kernelId, cta, warp);
    const bool values = lay.tracerVersion >= 6 && warp == 0;  // Val in warp 0, NoVal in warp 1
    Warp w;
    auto add = [&](uint32_t pc, std::vector<Reg> dst, std::string op, std::vector<Reg> src) -> Inst& {
        Inst in;
        in.lineNum = 100 + pc / 16;
        in.pc = pc;
        in.mask = mask;
        in.dst = std::move(dst);
        in.opcode = std::move(op);
        in.src = std::move(src);
        in.values = values;
        w.insts.push_back(in);
        return w.insts.back();
    };
    if (named) add(0x00, {UR(4)}, "S2UR", {});
    else add(0x00, {R(1)}, "S2R", {});
    add(0x10, {R(10)}, "IMAD", {named ? UR(4) : R(1), R(3), RZ()});
    if (named) add(0x20, {P(0)}, "ISETP.GE.AND", {R(10), URZ(), PT()});
    else add(0x20, {}, "ISETP.GE.AND", {R(10), RZ()});
    Inst& ld = add(0x30, {R(4)}, "LDG.E", {R(2)});
    ld.mem = true;
    for (unsigned l = 0; l < 32; ++l) ld.addr[l] = base + 4 * l;
    Inst& ld64 = add(0x40, {R(6)}, "LDG.E.64", {R(2)});
    ld64.mem = true;
    for (unsigned l = 0; l < 32; ++l) ld64.addr[l] = base + 0x1000 + 128 * l + (l == 1 ? 8 : 0);
    Inst& st = add(0x50, {}, "STG.E.U8", {R(2), R(4)});
    st.mem = true;
    st.mask = mask & (~mask + 1);  // the first active lane
    st.addr[0] = base + 0x3000;
    if (named) add(0x60, {UP(1)}, "UPLOP3.LUT", {UPT(), UPT(), UP(0)});
    else add(0x60, {R(12)}, "MOV", {RZ()});
    add(0x70, {}, "BRA", {}).imm = {112, -1};
    add(0x80, {}, "EXIT", {});
    return w;
}

inline Kernel exampleKernel(const Layout& lay, unsigned id) {
    Kernel k;
    k.name = "_Z7exampleILi" + std::to_string(id) + "EEvPf";
    k.id = id;
    k.grid = {2, 1, 1};
    k.block = {40, 1, 1};
    k.layout = lay;
    k.binaryVersion = 86;
    for (unsigned c = 0; c < 2; ++c) {
        Cta cta;
        cta.x = c;
        cta.warps = {exampleWarp(lay, id, c, 0), exampleWarp(lay, id, c, 1)};
        k.ctas.push_back(cta);
    }
    return k;
}

// What a current tracer writes (NVBit 1.8): two immediates, registers by name; version 5 or 6.
inline Layout currentLayout(unsigned version) {
    Layout l;
    l.tracerVersion = version;
    l.immediates = 2;
    l.regs = RegisterStyle::Named;
    return l;
}

struct ExampleLayout {
    const char* name;
    Layout layout;
};

// Every layout the tracers write: versions 3 to 6, lineinfo on and off, no, one and two
// immediates, compression on (modes 1 and 2) and off (mode 0), numbered and named registers,
// with the cluster lines of newer post-processing from version 5.
inline std::vector<ExampleLayout> exampleLayouts() {
    const auto lay = [](unsigned v, bool li, unsigned imms, bool compress, RegisterStyle regs) {
        Layout l;
        l.tracerVersion = v;
        l.lineinfo = li;
        l.immediates = imms;
        l.compress = compress;
        l.regs = regs;
        l.clusterLines = v >= 5;
        return l;
    };
    using S = RegisterStyle;
    return {
        {"v3", lay(3, false, 0, true, S::Numbered)},
        {"v3_uncompressed", lay(3, false, 0, false, S::Numbered)},
        {"v4", lay(4, false, 0, true, S::Numbered)},
        {"v5_one_immediate", lay(5, false, 1, true, S::Numbered)},
        {"v5_lineinfo_uncompressed", lay(5, true, 1, false, S::Numbered)},
        {"v5_two_immediates_named", lay(5, false, 2, true, S::Named)},
        {"v5_named_lineinfo_uncompressed", lay(5, true, 2, false, S::Named)},
        {"v6_values", lay(6, false, 2, true, S::Named)},
        {"v6_values_lineinfo_uncompressed", lay(6, true, 2, false, S::Named)},
        {"v6_numbered", lay(6, false, 2, true, S::Numbered)},
    };
}

} // namespace gpusim::tb::accelsim
