// SASS opcodes per instruction-set family (workloads/trace/SassFamily.hpp, SassOpcodes.hpp):
// which family a -binary version selects (and the nearest older one for a version without a
// table), the facts of each class of opcode (unit, memory op and space, uniform), an opcode that
// exists in a later family only being unknown in an earlier one, and the execution class the SM
// gets being the one it got before the tables were per family.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "workloads/trace/SassFamily.hpp"
#include "workloads/trace/SassOpcodes.hpp"

namespace trace_opcode_family_test {

using namespace gpusim;

namespace {

// One -binary version of each family.
constexpr uint64_t kKepler = 35, kPascal = 61, kVolta = 70, kTuring = 75, kAmpere = 86, kHopper = 90;

struct Expected {
    uint64_t version;
    SassFamily family;
    bool substituted;
    bool beforeOldest;
};

} // namespace

TEST(TraceOpcodeFamily, EveryListedVersionSelectsItsFamily) {
    const Expected cases[] = {
        {30, SassFamily::Kepler, false, false},        {37, SassFamily::Kepler, false, false},
        {50, SassFamily::MaxwellPascal, false, false}, {53, SassFamily::MaxwellPascal, false, false},
        {60, SassFamily::MaxwellPascal, false, false}, {62, SassFamily::MaxwellPascal, false, false},
        {70, SassFamily::Volta, false, false},         {72, SassFamily::Volta, false, false},
        {75, SassFamily::Turing, false, false},        {80, SassFamily::Ampere, false, false},
        {87, SassFamily::Ampere, false, false},        {89, SassFamily::Ampere, false, false},
        {90, SassFamily::Hopper, false, false},
        // Versions without a table: the nearest older family's; before Kepler, Kepler's.
        {65, SassFamily::MaxwellPascal, true, false},  {71, SassFamily::Volta, true, false},
        {100, SassFamily::Hopper, true, false},        {120, SassFamily::Hopper, true, false},
        {20, SassFamily::Kepler, true, true},          {1, SassFamily::Kepler, true, true},
    };
    for (const Expected& e : cases) {
        const SassTableChoice c = chooseSassTable(e.version);
        EXPECT_EQ(c.binaryVersion, e.version);
        EXPECT_TRUE(c.oneFamily()) << e.version;
        EXPECT_EQ(c.family, e.family) << e.version;
        EXPECT_EQ(c.families, sassFamilyBit(e.family)) << e.version;
        EXPECT_EQ(c.substituted, e.substituted) << e.version;
        EXPECT_EQ(c.beforeOldest, e.beforeOldest) << e.version;
    }
}

TEST(TraceOpcodeFamily, NoBinaryVersionSelectsEveryFamily) {
    const SassTableChoice c = chooseSassTable(kNoBinaryVersion);
    EXPECT_FALSE(c.oneFamily());
    EXPECT_EQ(c.families, kEverySassFamily);
    EXPECT_FALSE(c.substituted);
    // Known when any family has it: Kepler's ISUB and Hopper's HGMMA alike.
    EXPECT_TRUE(classifySass("ISUB").known);
    EXPECT_TRUE(classifySass("HGMMA").known);
    EXPECT_FALSE(classifySass("FROBNICATE").known);
}

TEST(TraceOpcodeFamily, AnOpcodeOfALaterFamilyIsUnknownInAnEarlierOne) {
    // LDGSTS (asynchronous copy) came with Ampere: a global load there, unknown (ALU) in Kepler.
    const SassOpcodeClass ampere = classifySass("LDGSTS.E.BYPASS.LTC128B.128", kAmpere);
    EXPECT_TRUE(ampere.known);
    EXPECT_EQ(ampere.op, OpClass::Load);
    EXPECT_EQ(ampere.space, MemSpace::Global);
    EXPECT_EQ(ampere.memOp, SassMemOp::AsyncCopy);
    const SassOpcodeClass kepler = classifySass("LDGSTS.E.BYPASS.LTC128B.128", kKepler);
    EXPECT_FALSE(kepler.known);
    EXPECT_EQ(kepler.op, OpClass::Alu);
    EXPECT_EQ(kepler.memOp, SassMemOp::None);  // no facts for an unknown opcode
    // And the other way: Kepler's ISUB and Maxwell/Pascal's XMAD are gone from Volta on.
    EXPECT_TRUE(classifySass("ISUB", kKepler).known);
    EXPECT_FALSE(classifySass("ISUB", kPascal).known);
    EXPECT_TRUE(classifySass("XMAD", kPascal).known);
    EXPECT_FALSE(classifySass("XMAD", kVolta).known);
    // The uniform datapath starts with Turing, the tensor cores with Volta.
    EXPECT_FALSE(classifySass("ULDC", kVolta).known);
    EXPECT_TRUE(classifySass("ULDC", kTuring).known);
    EXPECT_FALSE(classifySass("HMMA", kPascal).known);
    EXPECT_TRUE(classifySass("HMMA", kVolta).known);
    // Shared atomics are an instruction from Maxwell on (Kepler locks shared memory instead).
    EXPECT_FALSE(classifySass("ATOMS", kKepler).known);
    EXPECT_TRUE(classifySass("LDSLK", kKepler).known);
    EXPECT_FALSE(classifySass("LDSLK", kPascal).known);
}

TEST(TraceOpcodeFamily, UldcAndLdcAreConstantLoads) {
    const SassOpcodeClass c = classifySass("ULDC.64", kAmpere);
    EXPECT_TRUE(c.known);
    EXPECT_EQ(c.unit, SassUnit::Memory);
    EXPECT_EQ(c.memOp, SassMemOp::Load);
    EXPECT_EQ(c.memSpace, SassSpace::Constant);
    EXPECT_TRUE(c.uniform);
    // Through the constant cache (the reader makes them ALU when the line has no addresses).
    EXPECT_EQ(c.op, OpClass::Load);
    EXPECT_EQ(c.space, MemSpace::Constant);
    const SassOpcodeClass ldc = classifySass("LDC.U8", kKepler);
    EXPECT_EQ(ldc.memOp, SassMemOp::Load);
    EXPECT_EQ(ldc.memSpace, SassSpace::Constant);
    EXPECT_FALSE(ldc.uniform);
    EXPECT_EQ(ldc.op, OpClass::Load);
    EXPECT_EQ(ldc.space, MemSpace::Constant);
}

TEST(TraceOpcodeFamily, UniformDatapathOpcodes) {
    for (const char* op : {"S2UR", "UMOV", "UIADD3", "ULOP3.LUT", "USHF.L.U32", "R2UR", "VOTEU.ANY"}) {
        const SassOpcodeClass c = classifySass(op, kTuring);
        EXPECT_TRUE(c.known) << op;
        EXPECT_TRUE(c.uniform) << op;
        EXPECT_EQ(c.unit, SassUnit::Alu) << op;
        EXPECT_EQ(c.op, OpClass::Alu) << op;
    }
    EXPECT_FALSE(classifySass("S2R", kTuring).uniform);
    EXPECT_FALSE(classifySass("REDUX.SUM", kTuring).known);  // Ampere's
    EXPECT_TRUE(classifySass("REDUX.SUM", kAmpere).uniform);
}

TEST(TraceOpcodeFamily, TensorOpsHaveTheirOwnUnitAndRunOnTheTensorPipeline) {
    const struct {
        const char* op;
        uint64_t version;
    } cases[] = {{"HMMA.884.F32.F32.STEP0", kVolta}, {"IMMA.8816.S8.S8", kTuring}, {"BMMA.88128.AND.POPC", kTuring},
                 {"DMMA.884", kAmpere},            {"HGMMA.64x128x16.F32", kHopper}, {"IGMMA.64x64x32.S8.S8", kHopper},
                 {"QGMMA.64x64x32.F32.E4M3.E4M3", kHopper}};
    for (const auto& c : cases) {
        const SassOpcodeClass k = classifySass(c.op, c.version);
        EXPECT_TRUE(k.known) << c.op;
        EXPECT_EQ(k.unit, SassUnit::Tensor) << c.op;
        EXPECT_EQ(k.op, OpClass::Tensor) << c.op;
    }
    EXPECT_FALSE(classifySass("DMMA.884", kTuring).known);
    EXPECT_FALSE(classifySass("HGMMA.64x128x16.F32", kAmpere).known);
}

TEST(TraceOpcodeFamily, AtomicsCarryTheirSpaceAndWhetherTheyReturn) {
    // ATOMS: shared atomic with a result; store-like in the SM.
    const SassOpcodeClass atoms = classifySass("ATOMS.ADD", kVolta);
    EXPECT_EQ(atoms.unit, SassUnit::Memory);
    EXPECT_EQ(atoms.memOp, SassMemOp::Atomic);
    EXPECT_EQ(atoms.memSpace, SassSpace::Shared);
    EXPECT_TRUE(atoms.atomic());
    EXPECT_EQ(atoms.op, OpClass::Store);
    EXPECT_EQ(atoms.space, MemSpace::Shared);
    // RED: global reduction, no result.
    const SassOpcodeClass red = classifySass("RED.E.ADD.F32.FTZ.RN.STRONG.GPU", kVolta);
    EXPECT_EQ(red.memOp, SassMemOp::Reduction);
    EXPECT_EQ(red.memSpace, SassSpace::Global);
    EXPECT_TRUE(red.atomic());
    EXPECT_EQ(red.op, OpClass::Store);
    EXPECT_EQ(red.space, MemSpace::Global);
    // ATOM (generic in the ISA) and ATOMG: global atomics with a result.
    for (const char* op : {"ATOM.E.ADD", "ATOMG.E.EXCH.STRONG.GPU"}) {
        const SassOpcodeClass c = classifySass(op, kAmpere);
        EXPECT_EQ(c.memOp, SassMemOp::Atomic) << op;
        EXPECT_EQ(c.memSpace, SassSpace::Global) << op;
        EXPECT_EQ(c.op, OpClass::Load) << op;  // the old value returns to a register
        EXPECT_EQ(c.space, MemSpace::Global) << op;
    }
    // Surface atomics go through the texture path: ALU in the SM.
    const SassOpcodeClass suatom = classifySass("SUATOM.D.BA.2D.ADD", kPascal);
    EXPECT_EQ(suatom.unit, SassUnit::Texture);
    EXPECT_EQ(suatom.memSpace, SassSpace::Surface);
    EXPECT_TRUE(suatom.atomic());
    EXPECT_EQ(suatom.op, OpClass::Alu);
}

TEST(TraceOpcodeFamily, TextureFencesAndGenericAccesses) {
    const SassOpcodeClass tex = classifySass("TEX.B.LL", kPascal);
    EXPECT_EQ(tex.unit, SassUnit::Texture);
    EXPECT_EQ(tex.memOp, SassMemOp::Load);
    EXPECT_EQ(tex.memSpace, SassSpace::Texture);
    EXPECT_EQ(tex.op, OpClass::Load);  // through the texture cache
    EXPECT_EQ(tex.space, MemSpace::Texture);
    // Texture queries and surface loads are not: ALU.
    for (const char* op : {"TXQ.TEX_HEADER_DIMENSION", "TMML.LOD", "SULD.P.2D"}) {
        EXPECT_EQ(classifySass(op, kPascal).op, OpClass::Alu) << op;
    }
    for (const char* op : {"MEMBAR.SC.GPU", "DEPBAR.LE", "ERRBAR"}) {
        const SassOpcodeClass c = classifySass(op, kAmpere);
        EXPECT_EQ(c.unit, SassUnit::Fence) << op;
        EXPECT_EQ(c.op, OpClass::Alu) << op;
    }
    EXPECT_TRUE(classifySass("LDGDEPBAR", kAmpere).known);
    EXPECT_FALSE(classifySass("LDGDEPBAR", kTuring).known);
    const SassOpcodeClass ldsm = classifySass("LDSM.16.M88.4", kTuring);
    EXPECT_EQ(ldsm.op, OpClass::Load);
    EXPECT_EQ(ldsm.space, MemSpace::Shared);
    EXPECT_FALSE(classifySass("LDSM.16.M88.4", kVolta).known);
    // Generic LD / ST: generic() tells the reader to resolve them; global until it does.
    for (const char* op : {"LD.E.64", "ST.E.STRONG.GPU"}) {
        const SassOpcodeClass c = classifySass(op, kVolta);
        EXPECT_EQ(c.memSpace, SassSpace::Generic) << op;
        EXPECT_TRUE(c.generic()) << op;
        EXPECT_EQ(c.space, MemSpace::Global) << op;
    }
    EXPECT_FALSE(classifySass("LDG.E", kVolta).generic());
    EXPECT_FALSE(classifySass("ATOM.E.ADD", kVolta).generic());  // atomics: global, as in Accel-Sim
}

TEST(TraceOpcodeFamily, EveryOpcodeOfEveryFamilyIsKnownThere) {
    for (const uint64_t version : {kKepler, kPascal, kVolta, kTuring, kAmpere, kHopper}) {
        const SassTableChoice table = chooseSassTable(version);
        const auto mnemonics = sassFamilyMnemonics(table.family);
        EXPECT_GT(mnemonics.size(), 100u) << version;
        for (const std::string_view m : mnemonics) {
            const SassOpcodeClass c = classifySass(m, table);
            EXPECT_TRUE(c.known) << m << " in " << version;
            // A memory class only for LD/ST-unit accesses to the modelled spaces, constant reads
            // (ULDC uniform) and texture fetches.
            if (c.op == OpClass::Load || c.op == OpClass::Store) {
                if (c.space == MemSpace::Texture) {
                    EXPECT_EQ(c.unit, SassUnit::Texture) << m;
                } else {
                    EXPECT_EQ(c.unit, SassUnit::Memory) << m;
                }
                if (c.space != MemSpace::Constant) {
                    EXPECT_FALSE(c.uniform) << m;
                }
            }
        }
    }
}

TEST(TraceOpcodeFamily, TheSmExecutesWhatItExecutedBeforeFamilies) {
    // The table before issue 18 (one union table): these mnemonics were the only ones with a
    // class other than ALU, and every other known mnemonic ran as ALU. Families must not change
    // that for any opcode known before (statistics of existing runs stay identical); LDSLK,
    // STSCUL (Kepler) and STSM (Hopper) are new to the table. Constant reads and texture fetches
    // are loads in their spaces now; the reader keeps running them as ALU when their line has
    // no addresses, which is every such line Accel-Sim's tracer writes (trace_line_test).
    // Tensor ops run on the SM's tensor pipeline now (they ran as ALU before it existed).
    struct Special {
        std::string_view mnemonic;
        OpClass op;
        MemSpace space;
    };
    const Special before[] = {
        {"LDG", OpClass::Load, MemSpace::Global},   {"STG", OpClass::Store, MemSpace::Global},
        {"LD", OpClass::Load, MemSpace::Global},    {"ST", OpClass::Store, MemSpace::Global},
        {"LDS", OpClass::Load, MemSpace::Shared},   {"STS", OpClass::Store, MemSpace::Shared},
        {"LDSM", OpClass::Load, MemSpace::Shared},  {"LDL", OpClass::Load, MemSpace::Local},
        {"STL", OpClass::Store, MemSpace::Local},   {"LDGSTS", OpClass::Load, MemSpace::Global},
        {"ATOM", OpClass::Load, MemSpace::Global},  {"ATOMG", OpClass::Load, MemSpace::Global},
        {"RED", OpClass::Store, MemSpace::Global},  {"ATOMS", OpClass::Store, MemSpace::Shared},
        {"BAR", OpClass::Barrier, MemSpace::Global}, {"EXIT", OpClass::Exit, MemSpace::Global},
        {"MUFU", OpClass::Sfu, MemSpace::Global},
    };
    const std::set<std::string_view> newMemory = {"LDSLK", "STSCUL", "STSM"};
    const std::set<std::string_view> constantLoads = {"LDC", "ULDC"};
    const std::set<std::string_view> textureLoads = {"TEX", "TEXS", "TLD", "TLD4", "TLD4S", "TLDS", "TXD"};
    const std::set<std::string_view> tensorOps = {"BGMMA", "BMMA", "DMMA", "HGMMA", "HMMA", "IGMMA", "IMMA", "QGMMA"};
    std::set<std::string_view> every;
    for (unsigned f = 0; f < kSassFamilyCount; ++f)
        for (const std::string_view m : sassFamilyMnemonics(static_cast<SassFamily>(f))) every.insert(m);
    for (const std::string_view m : every) {
        if (newMemory.count(m)) continue;
        const SassOpcodeClass c = classifySass(m);  // every family's table, as before
        Special expected{m, OpClass::Alu, MemSpace::Global};
        for (const Special& s : before)
            if (s.mnemonic == m) expected = s;
        if (constantLoads.count(m)) expected = {m, OpClass::Load, MemSpace::Constant};
        if (textureLoads.count(m)) expected = {m, OpClass::Load, MemSpace::Texture};
        if (tensorOps.count(m)) expected = {m, OpClass::Tensor, MemSpace::Global};
        EXPECT_EQ(c.op, expected.op) << m;
        if (c.op == OpClass::Load || c.op == OpClass::Store) {
            EXPECT_EQ(c.space, expected.space) << m;
        }
    }
    EXPECT_EQ(classifySass("LDSLK", kKepler).op, OpClass::Load);
    EXPECT_EQ(classifySass("STSCUL", kKepler).space, MemSpace::Shared);
    EXPECT_EQ(classifySass("STSM.16.M88.4", kHopper).op, OpClass::Store);
}

} // namespace trace_opcode_family_test
