#include "workloads/trace/SassOpcodes.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace gpusim {

namespace {

// What a row says about an opcode (SassOpcodeClass's facts).
struct Facts {
    SassUnit unit;
    SassMemOp memOp;
    SassSpace space;
    bool uniform;
};

using U = SassUnit;
using M = SassMemOp;
using S = SassSpace;

constexpr Facts kAlu{U::Alu, M::None, S::None, false};
constexpr Facts kFp64{U::Fp64, M::None, S::None, false};
constexpr Facts kSfu{U::Sfu, M::None, S::None, false};
constexpr Facts kTensor{U::Tensor, M::None, S::None, false};
constexpr Facts kBranch{U::Branch, M::None, S::None, false};
constexpr Facts kFence{U::Fence, M::None, S::None, false};
constexpr Facts kBarrier{U::Barrier, M::None, S::None, false};
constexpr Facts kExit{U::Exit, M::None, S::None, false};
constexpr Facts kLoadGlobal{U::Memory, M::Load, S::Global, false};
constexpr Facts kLoadShared{U::Memory, M::Load, S::Shared, false};
constexpr Facts kLoadLocal{U::Memory, M::Load, S::Local, false};
constexpr Facts kLoadGeneric{U::Memory, M::Load, S::Generic, false};
constexpr Facts kLoadConstant{U::Memory, M::Load, S::Constant, false};
constexpr Facts kStoreGlobal{U::Memory, M::Store, S::Global, false};
constexpr Facts kStoreShared{U::Memory, M::Store, S::Shared, false};
constexpr Facts kStoreLocal{U::Memory, M::Store, S::Local, false};
constexpr Facts kStoreGeneric{U::Memory, M::Store, S::Generic, false};
// ATOM and RED address generic memory in the ISA; taken as global, as Accel-Sim does.
constexpr Facts kAtomicGlobal{U::Memory, M::Atomic, S::Global, false};
constexpr Facts kAtomicShared{U::Memory, M::Atomic, S::Shared, false};
constexpr Facts kReductionGlobal{U::Memory, M::Reduction, S::Global, false};
constexpr Facts kAsyncCopyGlobal{U::Memory, M::AsyncCopy, S::Global, false};
constexpr Facts kCacheControlGlobal{U::Memory, M::CacheControl, S::Global, false};
constexpr Facts kCacheControlLocal{U::Memory, M::CacheControl, S::Local, false};
constexpr Facts kCacheControlTexture{U::Memory, M::CacheControl, S::Texture, false};
constexpr Facts kTextureFetch{U::Texture, M::Load, S::Texture, false};
constexpr Facts kTextureQuery{U::Texture, M::None, S::Texture, false};
constexpr Facts kSurfaceLoad{U::Texture, M::Load, S::Surface, false};
constexpr Facts kSurfaceStore{U::Texture, M::Store, S::Surface, false};
constexpr Facts kSurfaceAtomic{U::Texture, M::Atomic, S::Surface, false};
constexpr Facts kSurfaceReduction{U::Texture, M::Reduction, S::Surface, false};
constexpr Facts kSurfaceAddress{U::Texture, M::None, S::Surface, false};  // address arithmetic, queries
constexpr Facts kUniformAlu{U::Alu, M::None, S::None, true};
constexpr Facts kUniformFence{U::Fence, M::None, S::None, true};
constexpr Facts kUniformLoadConstant{U::Memory, M::Load, S::Constant, true};
constexpr Facts kUniformAtomicGlobal{U::Memory, M::Atomic, S::Global, true};
constexpr Facts kUniformAsyncCopyGlobal{U::Memory, M::AsyncCopy, S::Global, true};
constexpr Facts kUniformStoreGlobal{U::Memory, M::Store, S::Global, true};
constexpr Facts kUniformReductionGlobal{U::Memory, M::Reduction, S::Global, true};
constexpr Facts kUniformPrefetchGlobal{U::Memory, M::CacheControl, S::Global, true};

constexpr SassFamilyMask from(SassFamily f) {
    return static_cast<SassFamilyMask>(kEverySassFamily & ~(sassFamilyBit(f) - 1));
}

constexpr SassFamilyMask kAll = kEverySassFamily;
constexpr SassFamilyMask kKepler = sassFamilyBit(SassFamily::Kepler);
constexpr SassFamilyMask kMaxwellPascal = sassFamilyBit(SassFamily::MaxwellPascal);
constexpr SassFamilyMask kUntilPascal = kKepler | kMaxwellPascal;
constexpr SassFamilyMask kFromMaxwell = from(SassFamily::MaxwellPascal);
constexpr SassFamilyMask kFromVolta = from(SassFamily::Volta);
constexpr SassFamilyMask kFromTuring = from(SassFamily::Turing);
constexpr SassFamilyMask kFromAmpere = from(SassFamily::Ampere);
constexpr SassFamilyMask kHopper = sassFamilyBit(SassFamily::Hopper);

struct Row {
    std::string_view mnemonic;
    SassFamilyMask families;
    Facts facts;
};

// Every mnemonic of Accel-Sim's opcode maps and of NVIDIA's instruction-set references from
// Kepler to Hopper, with the families that have it (see SassOpcodes.hpp). Where the two
// sources disagree the row takes the union: Accel-Sim's pascal map, a copy of its volta map
// plus the Maxwell/Pascal opcodes, lists Volta opcodes such as BSSY and IMMA, so those are
// known from Maxwell/Pascal on. Sorted by mnemonic (binary search).
constexpr Row kRows[] = {
    {"AL2P", kFromMaxwell, kAlu}, {"ALD", kFromMaxwell, kAlu}, {"ARRIVES", kHopper, kFence},
    {"AST", kFromMaxwell, kAlu}, {"ATOM", kAll, kAtomicGlobal}, {"ATOMG", kFromMaxwell, kAtomicGlobal},
    {"ATOMS", kFromMaxwell, kAtomicShared}, {"ATOMU", kFromAmpere, kUniformAtomicGlobal},
    {"B2R", kAll, kAlu}, {"BAR", kAll, kBarrier}, {"BFE", kUntilPascal, kAlu},
    {"BFI", kUntilPascal, kAlu}, {"BGMMA", kHopper, kTensor}, {"BMMA", kFromTuring, kTensor},
    {"BMOV", kFromMaxwell, kBranch}, {"BMSK", kFromMaxwell, kAlu}, {"BPT", kAll, kBranch},
    {"BRA", kAll, kBranch}, {"BREAK", kFromMaxwell, kBranch}, {"BREV", kFromMaxwell, kAlu},
    {"BRK", kUntilPascal, kBranch}, {"BRX", kAll, kBranch}, {"BRXU", kFromTuring, kBranch},
    {"BSSY", kFromMaxwell, kBranch}, {"BSYNC", kFromMaxwell, kBranch},
    {"CAL", kUntilPascal, kBranch}, {"CALL", kFromMaxwell, kBranch},
    {"CCTL", kAll, kCacheControlGlobal}, {"CCTLL", kAll, kCacheControlLocal},
    {"CCTLT", kFromMaxwell, kCacheControlTexture}, {"CGAERRBAR", kHopper, kFence},
    {"CONT", kUntilPascal, kBranch}, {"CS2R", kFromMaxwell, kAlu}, {"CSET", kUntilPascal, kAlu},
    {"CSETP", kUntilPascal, kAlu}, {"CSMTEST", kFromMaxwell, kAlu},
    {"DADD", kAll, kFp64}, {"DEPBAR", kFromMaxwell, kFence}, {"DFMA", kAll, kFp64},
    {"DMMA", kFromAmpere, kTensor}, {"DMNMX", kUntilPascal, kFp64}, {"DMUL", kAll, kFp64},
    {"DSET", kUntilPascal, kFp64}, {"DSETP", kAll, kFp64},
    {"ELECT", kHopper, kBranch}, {"ERRBAR", kFromMaxwell, kFence}, {"EXIT", kAll, kExit},
    {"F2F", kAll, kAlu}, {"F2FP", kFromAmpere, kAlu}, {"F2I", kAll, kAlu}, {"F2IP", kFromAmpere, kAlu},
    {"FADD", kAll, kAlu}, {"FADD32I", kAll, kAlu}, {"FCHK", kAll, kAlu}, {"FCMP", kUntilPascal, kAlu},
    {"FENCE", kHopper, kFence}, {"FFMA", kAll, kAlu}, {"FFMA32I", kAll, kAlu}, {"FLO", kAll, kAlu},
    {"FMNMX", kAll, kAlu}, {"FMUL", kAll, kAlu}, {"FMUL32I", kAll, kAlu}, {"FRND", kFromMaxwell, kAlu},
    {"FSEL", kFromVolta, kAlu}, {"FSET", kAll, kAlu}, {"FSETP", kAll, kAlu}, {"FSWZ", kKepler, kAlu},
    {"FSWZADD", kFromMaxwell, kAlu},
    {"GETCRSPTR", kMaxwellPascal, kAlu}, {"GETLMEMBASE", kFromMaxwell, kAlu},
    {"HADD2", kFromMaxwell, kAlu}, {"HADD2_32I", kFromVolta, kAlu}, {"HFMA2", kFromMaxwell, kAlu},
    {"HFMA2_32I", kFromVolta, kAlu}, {"HGMMA", kHopper, kTensor}, {"HMMA", kFromVolta, kTensor},
    {"HMNMX2", kFromAmpere, kAlu}, {"HMUL2", kFromMaxwell, kAlu}, {"HMUL2_32I", kFromVolta, kAlu},
    {"HSET2", kFromMaxwell, kAlu}, {"HSETP2", kFromMaxwell, kAlu},
    {"I2F", kAll, kAlu}, {"I2FP", kFromAmpere, kAlu}, {"I2I", kAll, kAlu}, {"I2IP", kFromMaxwell, kAlu},
    {"IABS", kFromMaxwell, kAlu}, {"IADD", kAll, kAlu}, {"IADD3", kFromMaxwell, kAlu},
    {"IADD32I", kAll, kAlu}, {"ICMP", kUntilPascal, kAlu}, {"IDE", kMaxwellPascal, kAlu},
    {"IDP", kFromMaxwell, kAlu}, {"IDP4A", kFromMaxwell, kAlu}, {"IGMMA", kHopper, kTensor},
    {"IMAD", kAll, kAlu}, {"IMAD32I", kUntilPascal, kAlu}, {"IMADSP", kUntilPascal, kAlu},
    {"IMMA", kFromMaxwell, kTensor}, {"IMNMX", kAll, kAlu}, {"IMUL", kAll, kAlu},
    {"IMUL32I", kAll, kAlu}, {"IPA", kFromMaxwell, kAlu}, {"ISAD", kKepler, kAlu},
    {"ISBERD", kFromMaxwell, kAlu}, {"ISCADD", kAll, kAlu}, {"ISCADD32I", kAll, kAlu},
    {"ISET", kUntilPascal, kAlu}, {"ISETP", kAll, kAlu}, {"ISUB", kKepler, kAlu},
    {"JCAL", kUntilPascal, kBranch}, {"JMP", kAll, kBranch}, {"JMX", kAll, kBranch},
    {"JMXU", kFromTuring, kBranch},
    {"KIL", kMaxwellPascal, kBranch}, {"KILL", kFromMaxwell, kBranch},
    {"LD", kAll, kLoadGeneric}, {"LDC", kAll, kLoadConstant}, {"LDG", kAll, kLoadGlobal},
    {"LDGDEPBAR", kFromAmpere, kFence}, {"LDGSTS", kFromAmpere, kAsyncCopyGlobal},
    {"LDL", kAll, kLoadLocal}, {"LDS", kAll, kLoadShared}, {"LDSLK", kKepler, kLoadShared},
    {"LDSM", kFromTuring, kLoadShared}, {"LEA", kFromMaxwell, kAlu}, {"LEPC", kFromMaxwell, kAlu},
    {"LONGJMP", kMaxwellPascal, kBranch}, {"LOP", kAll, kAlu}, {"LOP3", kFromMaxwell, kAlu},
    {"LOP32I", kAll, kAlu},
    {"MATCH", kFromMaxwell, kAlu}, {"MEMBAR", kAll, kFence}, {"MOV", kAll, kAlu},
    {"MOV32I", kAll, kAlu}, {"MOVM", kFromTuring, kAlu}, {"MUFU", kAll, kSfu},
    {"NANOSLEEP", kFromMaxwell, kBranch}, {"NOP", kAll, kAlu},
    {"OUT", kFromMaxwell, kAlu},
    {"P2R", kAll, kAlu}, {"PBK", kUntilPascal, kBranch}, {"PCNT", kUntilPascal, kBranch},
    {"PEXIT", kMaxwellPascal, kBranch}, {"PIXLD", kFromMaxwell, kAlu},
    {"PLONGJMP", kMaxwellPascal, kBranch}, {"PLOP3", kFromMaxwell, kAlu},
    {"PMTRIG", kFromMaxwell, kAlu}, {"POPC", kAll, kAlu}, {"PRET", kUntilPascal, kBranch},
    {"PRMT", kAll, kAlu}, {"PSET", kUntilPascal, kAlu}, {"PSETP", kAll, kAlu},
    {"QGMMA", kHopper, kTensor}, {"QSPC", kFromMaxwell, kAlu},
    {"R2B", kFromMaxwell, kAlu}, {"R2P", kAll, kAlu}, {"R2UR", kFromTuring, kUniformAlu},
    {"RAM", kMaxwellPascal, kAlu}, {"RED", kAll, kReductionGlobal}, {"REDUX", kFromAmpere, kUniformAlu},
    {"RET", kAll, kBranch}, {"RPCMOV", kFromMaxwell, kBranch}, {"RRO", kUntilPascal, kAlu},
    {"RTT", kFromMaxwell, kBranch},
    {"S2R", kAll, kAlu}, {"S2UR", kFromTuring, kUniformAlu}, {"SAM", kMaxwellPascal, kAlu},
    {"SEL", kAll, kAlu}, {"SETCRSPTR", kMaxwellPascal, kAlu}, {"SETCTAID", kFromMaxwell, kAlu},
    {"SETLMEMBASE", kFromMaxwell, kAlu}, {"SGXT", kFromMaxwell, kAlu}, {"SHF", kAll, kAlu},
    {"SHFL", kAll, kAlu}, {"SHL", kAll, kAlu}, {"SHR", kAll, kAlu}, {"SSY", kUntilPascal, kBranch},
    {"ST", kAll, kStoreGeneric}, {"STG", kFromMaxwell, kStoreGlobal}, {"STL", kAll, kStoreLocal},
    {"STS", kAll, kStoreShared}, {"STSCUL", kKepler, kStoreShared}, {"STSM", kHopper, kStoreShared},
    {"SUATOM", kFromMaxwell, kSurfaceAtomic}, {"SUBFM", kKepler, kSurfaceAddress},
    {"SUCLAMP", kKepler, kSurfaceAddress}, {"SUEAU", kKepler, kSurfaceAddress},
    {"SULD", kFromMaxwell, kSurfaceLoad}, {"SULDGA", kKepler, kSurfaceLoad},
    {"SUQUERY", kFromAmpere, kSurfaceAddress}, {"SURED", kFromMaxwell, kSurfaceReduction},
    {"SUST", kFromMaxwell, kSurfaceStore}, {"SUSTGA", kKepler, kSurfaceStore},
    {"SYNC", kMaxwellPascal, kBranch}, {"SYNCS", kHopper, kFence},
    {"TEX", kAll, kTextureFetch}, {"TEXDEPBAR", kUntilPascal, kFence},
    {"TEXS", kMaxwellPascal, kTextureFetch}, {"TLD", kAll, kTextureFetch},
    {"TLD4", kAll, kTextureFetch}, {"TLD4S", kMaxwellPascal, kTextureFetch},
    {"TLDS", kMaxwellPascal, kTextureFetch}, {"TMML", kFromMaxwell, kTextureQuery},
    {"TXD", kFromMaxwell, kTextureFetch}, {"TXQ", kAll, kTextureQuery},
    {"UBLKCP", kHopper, kUniformAsyncCopyGlobal}, {"UBLKPF", kHopper, kUniformPrefetchGlobal},
    {"UBLKRED", kHopper, kUniformReductionGlobal}, {"UBMSK", kFromTuring, kUniformAlu},
    {"UBREV", kFromTuring, kUniformAlu}, {"UCGABAR_ARV", kHopper, kUniformFence},
    {"UCGABAR_WAIT", kHopper, kUniformFence}, {"UCLEA", kFromTuring, kUniformAlu},
    {"UF2FP", kFromAmpere, kUniformAlu}, {"UFLO", kFromTuring, kUniformAlu},
    {"UIADD3", kFromTuring, kUniformAlu}, {"UIMAD", kFromTuring, kUniformAlu},
    {"UISETP", kFromTuring, kUniformAlu}, {"ULDC", kFromTuring, kUniformLoadConstant},
    {"ULEA", kFromTuring, kUniformAlu}, {"ULOP", kFromTuring, kUniformAlu},
    {"ULOP3", kFromTuring, kUniformAlu}, {"ULOP32I", kFromTuring, kUniformAlu},
    {"UMOV", kFromTuring, kUniformAlu}, {"UP2UR", kFromTuring, kUniformAlu},
    {"UPLOP3", kFromTuring, kUniformAlu}, {"UPOPC", kFromTuring, kUniformAlu},
    {"UPRMT", kFromTuring, kUniformAlu}, {"UPSETP", kFromTuring, kUniformAlu},
    {"UR2UP", kFromTuring, kUniformAlu}, {"USEL", kFromTuring, kUniformAlu},
    {"USETMAXREG", kHopper, kUniformAlu}, {"USGXT", kFromTuring, kUniformAlu},
    {"USHF", kFromTuring, kUniformAlu}, {"USHL", kFromTuring, kUniformAlu},
    {"USHR", kFromTuring, kUniformAlu}, {"UTMACCTL", kHopper, kUniformPrefetchGlobal},
    {"UTMACMDFLUSH", kHopper, kUniformFence}, {"UTMALDG", kHopper, kUniformAsyncCopyGlobal},
    {"UTMAPF", kHopper, kUniformPrefetchGlobal}, {"UTMAREDG", kHopper, kUniformReductionGlobal},
    {"UTMASTG", kHopper, kUniformStoreGlobal},
    {"VABSDIFF", kFromMaxwell, kAlu}, {"VABSDIFF4", kFromMaxwell, kAlu}, {"VADD", kUntilPascal, kAlu},
    {"VIADD", kHopper, kAlu}, {"VIADDMNMX", kHopper, kAlu}, {"VIMNMX", kHopper, kAlu},
    {"VIMNMX3", kHopper, kAlu}, {"VMAD", kUntilPascal, kAlu}, {"VMNMX", kUntilPascal, kAlu},
    {"VOTE", kAll, kAlu}, {"VOTEU", kFromTuring, kUniformAlu}, {"VOTE_VTG", kFromMaxwell, kAlu},
    {"VSET", kUntilPascal, kAlu}, {"VSETP", kUntilPascal, kAlu}, {"VSHL", kUntilPascal, kAlu},
    {"VSHR", kUntilPascal, kAlu},
    {"WARPGROUP", kHopper, kFence}, {"WARPSYNC", kFromMaxwell, kBranch},
    {"XMAD", kMaxwellPascal, kAlu},
    {"YIELD", kFromMaxwell, kBranch},
};

constexpr bool sorted() {
    for (size_t i = 1; i < std::size(kRows); ++i)
        if (!(kRows[i - 1].mnemonic < kRows[i].mnemonic)) return false;
    return true;
}
static_assert(sorted(), "kRows must be sorted by mnemonic for binary search");

const Row* findRow(std::string_view mnemonic) {
    const auto it = std::lower_bound(std::begin(kRows), std::end(kRows), mnemonic,
                                     [](const Row& r, std::string_view m) { return r.mnemonic < m; });
    return it != std::end(kRows) && it->mnemonic == mnemonic ? &*it : nullptr;
}

MemSpace executedSpace(SassSpace s) {
    switch (s) {
    case SassSpace::Shared: return MemSpace::Shared;
    case SassSpace::Local: return MemSpace::Local;
    case SassSpace::Constant: return MemSpace::Constant;
    case SassSpace::Texture: return MemSpace::Texture;
    default: return MemSpace::Global;  // global, and generic until the reader resolves it
    }
}

} // namespace

std::string_view sassMnemonic(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

void executedAs(SassOpcodeClass& c) {
    c.op = OpClass::Alu;
    c.space = MemSpace::Global;
    switch (c.unit) {
    case SassUnit::Exit: c.op = OpClass::Exit; break;
    case SassUnit::Barrier: c.op = OpClass::Barrier; break;
    case SassUnit::Sfu: c.op = OpClass::Sfu; break;
    case SassUnit::Tensor: c.op = OpClass::Tensor; break;
    case SassUnit::Memory: {
        // Constant reads (LDC, and ULDC on the uniform datapath): loads through the constant
        // cache. The reader runs them as ALU when their line carries no addresses (header).
        if (c.memSpace == SassSpace::Constant && c.memOp == SassMemOp::Load) {
            c.op = OpClass::Load;
            c.space = MemSpace::Constant;
            break;
        }
        // The LD/ST unit's accesses to the spaces the SM models. Other uniform ones (bulk and
        // TMA copies) carry no per-lane addresses; cache control has no path in the SM: all of
        // those run as ALU.
        const bool modelledSpace = c.memSpace == SassSpace::Global || c.memSpace == SassSpace::Generic ||
                                   c.memSpace == SassSpace::Shared || c.memSpace == SassSpace::Local;
        if (c.uniform || !modelledSpace) break;
        if (c.memOp == SassMemOp::Load || c.memOp == SassMemOp::AsyncCopy) {
            c.op = OpClass::Load;
        } else if (c.memOp == SassMemOp::Atomic && c.memSpace != SassSpace::Shared) {
            c.op = OpClass::Load;  // ATOM: its old value returns to a register (the reader makes
                                   // one without a destination store-like)
        } else if (c.memOp == SassMemOp::Store || c.atomic()) {
            c.op = OpClass::Store;  // RED; ATOMS store-like (header)
        } else {
            break;
        }
        c.space = executedSpace(c.memSpace);
        break;
    }
    case SassUnit::Texture:
        // Texture fetches (TEX TLD TLD4 TXD, Maxwell's TEXS TLDS TLD4S): loads through the
        // texture cache (ALU when their line carries no addresses). Queries (TXQ TMML) and
        // surface accesses stay ALU (header).
        if (c.memSpace == SassSpace::Texture && c.memOp == SassMemOp::Load) {
            c.op = OpClass::Load;
            c.space = MemSpace::Texture;
        }
        break;
    default:
        break;  // ALU, FP64, branch, fences: ALU (header)
    }
    c.isExit = c.op == OpClass::Exit;
}

SassOpcodeClass classifySass(std::string_view opcode, const SassTableChoice& table) {
    SassOpcodeClass c;
    const Row* row = findRow(sassMnemonic(opcode));
    if (row == nullptr || (row->families & table.families) == 0) return c;  // unknown: ALU
    c.known = true;
    c.unit = row->facts.unit;
    c.memOp = row->facts.memOp;
    c.memSpace = row->facts.space;
    c.uniform = row->facts.uniform;
    executedAs(c);
    return c;
}

SassOpcodeClass classifySass(std::string_view opcode, uint64_t binaryVersion) {
    return classifySass(opcode, chooseSassTable(binaryVersion));
}

std::vector<std::string_view> sassFamilyMnemonics(SassFamily family) {
    std::vector<std::string_view> out;
    for (const Row& r : kRows)
        if (r.families & sassFamilyBit(family)) out.push_back(r.mnemonic);
    return out;
}

} // namespace gpusim
