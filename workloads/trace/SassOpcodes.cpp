#include "workloads/trace/SassOpcodes.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace gpusim {

namespace {

struct Entry {
    std::string_view name;
    OpClass op;
    MemSpace space;
};

constexpr Entry kSpecial[] = {
    {"LDG", OpClass::Load, MemSpace::Global},   {"STG", OpClass::Store, MemSpace::Global},
    {"LD", OpClass::Load, MemSpace::Global},    {"ST", OpClass::Store, MemSpace::Global},
    {"LDS", OpClass::Load, MemSpace::Shared},   {"STS", OpClass::Store, MemSpace::Shared},
    {"LDSM", OpClass::Load, MemSpace::Shared},  {"LDL", OpClass::Load, MemSpace::Local},
    {"STL", OpClass::Store, MemSpace::Local},   {"LDGSTS", OpClass::Load, MemSpace::Global},
    {"ATOM", OpClass::Store, MemSpace::Global}, {"ATOMG", OpClass::Store, MemSpace::Global},
    {"RED", OpClass::Store, MemSpace::Global},  {"ATOMS", OpClass::Store, MemSpace::Shared},
    {"BAR", OpClass::Barrier, MemSpace::Global}, {"EXIT", OpClass::Exit, MemSpace::Global},
    {"MUFU", OpClass::Sfu, MemSpace::Global},
};

// Every other mnemonic of NVIDIA's SASS references for Kepler, Maxwell, Pascal, Volta, Turing
// and Ampere (CUDA binary utilities, instruction set reference). Sorted: binary search.
constexpr std::string_view kAlu[] = {
    "AL2P", "ALD", "AST", "ATOMU", "B2R", "BFE", "BFI", "BMMA", "BMOV", "BMSK", "BPT", "BRA",
    "BREAK", "BREV", "BRK", "BRX", "BRXU", "BSSY", "BSYNC", "CAL", "CALL", "CCTL", "CCTLL",
    "CCTLT", "CONT", "CS2R", "CSET", "CSETP", "DADD", "DEPBAR", "DFMA", "DMMA", "DMNMX",
    "DMUL", "DSET", "DSETP", "ELECT", "ERRBAR", "F2F", "F2FP", "F2I", "F2IP", "FADD",
    "FADD32I", "FCHK", "FCMP", "FENCE", "FFMA", "FFMA32I", "FLO", "FMNMX", "FMUL", "FMUL32I",
    "FRND", "FSEL", "FSET", "FSETP", "FSWZADD", "GETCRSPTR", "GETLMEMBASE", "HADD2",
    "HADD2_32I", "HFMA2", "HFMA2_32I", "HMMA", "HMNMX2", "HMUL2", "HMUL2_32I", "HSET2",
    "HSETP2", "I2F", "I2FP", "I2I", "I2IP", "IABS", "IADD", "IADD3", "IADD32I", "ICMP", "IDE",
    "IDP", "IDP4A", "IMAD", "IMAD32I", "IMADSP", "IMMA", "IMNMX", "IMUL", "IMUL32I", "IPA",
    "ISBERD", "ISCADD", "ISCADD32I", "ISET", "ISETP", "JCAL", "JMP", "JMX", "JMXU", "KIL",
    "KILL", "LDC", "LDGDEPBAR", "LEA", "LEPC", "LONGJMP", "LOP", "LOP3", "LOP32I", "MATCH",
    "MEMBAR", "MOV", "MOV32I", "MOVM", "NANOSLEEP", "NOP", "OUT", "P2R", "PBK", "PCNT",
    "PEXIT", "PIXLD", "PLONGJMP", "PLOP3", "PMTRIG", "POPC", "PRET", "PRMT", "PSET", "PSETP",
    "QSPC", "R2B", "R2P", "R2UR", "RAM", "REDUX", "RET", "RPCMOV", "RRO", "RTT", "S2R",
    "S2UR", "SAM", "SEL", "SETCRSPTR", "SETCTAID", "SETLMEMBASE", "SGXT", "SHF", "SHFL",
    "SHL", "SHR", "SSY", "SUATOM", "SULD", "SURED", "SUST", "SYNC", "TEX", "TEXDEPBAR", "TEXS",
    "TLD", "TLD4", "TLD4S", "TLDS", "TMML", "TXD", "TXQ", "UBMSK", "UBREV", "UCLEA", "UFLO",
    "UIADD3", "UIMAD", "UISETP", "ULDC", "ULEA", "ULOP", "ULOP3", "ULOP32I", "UMOV", "UP2UR",
    "UPLOP3", "UPOPC", "UPRMT", "UPSETP", "UR2UP", "USEL", "USGXT", "USHF", "USHL", "USHR",
    "VABSDIFF", "VABSDIFF4", "VADD", "VMAD", "VMNMX", "VOTE", "VOTEU", "VSET", "VSETP",
    "WARPSYNC", "XMAD", "YIELD",
};

constexpr bool sorted() {
    for (size_t i = 1; i < std::size(kAlu); ++i)
        if (!(kAlu[i - 1] < kAlu[i])) return false;
    return true;
}
static_assert(sorted(), "kAlu must be sorted for binary search");

} // namespace

std::string_view sassMnemonic(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

SassOpcodeClass classifySass(std::string_view opcode) {
    const std::string_view m = sassMnemonic(opcode);
    // Most mnemonics are ALU; try the short list of special ones only when the first letter can
    // start one (A B E L M R S), which keeps the per-line cost to a few compares.
    switch (m.empty() ? '\0' : m[0]) {
    case 'A': case 'B': case 'E': case 'L': case 'M': case 'R': case 'S':
        for (const Entry& e : kSpecial)
            if (e.name == m) return {e.op, e.space, true, e.op == OpClass::Exit};
        break;
    default:
        break;
    }
    const bool known = std::binary_search(std::begin(kAlu), std::end(kAlu), m);
    return {OpClass::Alu, MemSpace::Global, known, false};
}

} // namespace gpusim
