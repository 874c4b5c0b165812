#pragma once
// Writes Accel-Sim trace directories (kernel-*.traceg and kernelslist.g) the way Accel-Sim's
// NVBit tracer and its post-processing step write them, for the trace reader's tests. It is not
// our TraceWriter (which the reader must not be tested with): every text this file emits follows
// one output statement of those tools, named in the comment beside it by the key below.
//
//   [T5]  accel-sim/accel-sim-framework, util/tracer_nvbit/tracer_tool/tracer_tool.cu at
//         0111427154e5 (TRACER_VERSION "5"): the header fprintf calls of the kernel-launch
//         callback, the "#traces format" line, and recv_thread_fun's per-instruction fprintf calls.
//   [T5c] the same file at 1e8951b99aec (version 5 per CUDA context): trace files named
//         "kernel-%d-ctx_0x%lx.trace".
//   [T3]  William-An/accel-sim-framework, the same file at 1f533ace5e00 (TRACER_VERSION "3"):
//         no "-enable lineinfo" header line, the format line that starts with threadblock_x, no
//         immediate after the addresses.
//   [P]   accel-sim/accel-sim-framework, util/tracer_nvbit/tracer_tool/traces-processing/
//         post-traces-processing.cpp at 1453bb891df3: copies header, '#' and empty lines as they
//         are; drops each instruction line's leading thread-block, warp (and cluster) fields and
//         the space after them; writes the blocks in linear order (x fastest) between #BEGIN_TB /
//         #END_TB with "thread block =", "cluster id =", "cluster cta =", "cluster rank =",
//         "warp =", "insts =" lines; in kernelslist.g copies "Memcpy..." lines and appends "g" to
//         every "kernel..." file name.
//   [N]   NVBit's operand types (IMM_UINT64, IMM_DOUBLE, REG, PRED, UREG, UPRED, CBANK, MREF,
//         GENERIC, as NVBit's maintainers answer on its tracker); a UREG operand's number is in
//         u.reg.num, as a REG's is; URZ is UREG 63, as RZ is REG 255, PT and UPT predicate 7 in SASS.
//   [U]   traces of a current tracer as users bring them (NVBit 1.8, -binary version = 90): a
//         version-5 line "0020 ffffffff 1 UR4 S2UR 0 0 0 0" (uniform registers by name, two
//         immediates), and version 6's format line "... Val|NoVal [dest_val_num] [dest_val] ...
//         [src_val1_num] [src_val1] ... [...] [src_valX_num] [src_valX] ...". No stored copy of
//         such a tracer's source was found: the printing of register names other than R<n>, the
//         two immediates and the value fields follow these traces, not a statement.
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace gpusim::tb::accelsim {

// A register operand: its file and number as NVBit gives them [N]; the constants are numbers
// 255 (RZ), 63 (URZ), 7 (PT, UPT).
enum class RegFile { R, UR, P, UP };
struct Reg {
    RegFile file = RegFile::R;
    unsigned num = 0;
};
inline Reg R(unsigned n) { return {RegFile::R, n}; }
inline Reg RZ() { return {RegFile::R, 255}; }
inline Reg UR(unsigned n) { return {RegFile::UR, n}; }
inline Reg URZ() { return {RegFile::UR, 63}; }
inline Reg P(unsigned n) { return {RegFile::P, n}; }
inline Reg PT() { return {RegFile::P, 7}; }
inline Reg UP(unsigned n) { return {RegFile::UP, n}; }
inline Reg UPT() { return {RegFile::UP, 7}; }

// How register operands are printed:
//   Numbered  [T5] fprintf "R%d " of the operand's number for every register it reports (REG
//             operands and a memory reference's ra_num; it skips UREG, PRED and UPRED
//             operands), so RZ is "R255";
//   Named     [U] SASS's names: R<n>, RZ, UR<n>, URZ, P<n>, PT, UP<n>, UPT.
enum class RegisterStyle { Numbered, Named };

struct Inst {
    unsigned lineNum = 0;     // printed first when lineinfo is on
    uint32_t pc = 0;
    uint32_t mask = 0xffffffffu;  // the tracer prints active_mask & predicate_mask
    std::vector<Reg> dst;
    std::string opcode;
    std::vector<Reg> src;
    bool mem = false;         // the instruction has a memory reference (the tracer's is_mem)
    std::array<uint64_t, 32> addr{};  // per lane, read for active lanes
    std::vector<long long> imm;       // the immediates the layout prints (missing ones are 0)
    bool values = false;      // version 6: Val with the registers' values, else NoVal
};
struct Warp {
    std::vector<Inst> insts;
};
struct Cta {
    unsigned x = 0, y = 0, z = 0;
    std::vector<Warp> warps;
};

struct Layout {
    unsigned tracerVersion = 5;  // 3 to 6
    bool lineinfo = false;       // TRACE_LINEINFO [T5]
    unsigned immediates = 1;     // printed after the addresses: 0 ([T3]), 1 ([T5]) or 2 ([U])
    bool compress = true;        // TOOL_COMPRESS [T5]: modes 1 and 2 when on, mode 0 when off
    RegisterStyle regs = RegisterStyle::Numbered;
    bool clusterLines = true;    // the cluster lines of [P]'s blocks
};

struct Kernel {
    std::string name = "_Z6kernelPf";
    unsigned id = 1;
    std::array<unsigned, 3> grid{1, 1, 1}, block{32, 1, 1};
    unsigned shmem = 0, nregs = 16, binaryVersion = 86;
    uint64_t stream = 0;
    uint64_t shmemBase = 0x00007f0000000000ull, localBase = 0x00007f0001000000ull;
    std::string nvbitVersion = "1.8";
    uint64_t ctx = 0;  // nonzero: [T5c]'s per-context file name
    Layout layout;
    std::vector<Cta> ctas;  // in linear block order (x fastest), as [P] writes them
};

struct Memcpy {
    uint64_t dst = 0;
    unsigned long long bytes = 0;
};

namespace detail {

inline void appendf(std::string& s, const char* fmt, auto... args) {
    char b[128];
    const int n = std::snprintf(b, sizeof b, fmt, args...);
    s.append(b, static_cast<size_t>(n));
}

inline std::string regText(const Reg& r, RegisterStyle style) {
    if (style == RegisterStyle::Numbered) {
        if (r.file != RegFile::R) throw std::logic_error("Accel-Sim's tracer does not report UREG, PRED, UPRED");
        return "R" + std::to_string(r.num);  // [T5] fprintf(resultsFile, "R%d ", ma->GPRDst) and GPRSrcs
    }
    static const char* const prefix[] = {"R", "UR", "P", "UP"};
    static const char* const constant[] = {"RZ", "URZ", "PT", "UPT"};
    static const unsigned last[] = {255, 63, 7, 7};
    const auto f = static_cast<unsigned>(r.file);
    if (r.num == last[f]) return constant[f];  // [U], [N]: the constant of each file by its SASS name
    return prefix[f] + std::to_string(r.num);  // [U]: UR4, as in "1 UR4 S2UR"
}

inline unsigned popcount(uint32_t m) { return static_cast<unsigned>(__builtin_popcount(m)); }

// [T5] get_datawidth_from_opcode over the opcode's '.'-separated tokens: the first all-digit
// token / 8, or "U<bits>" / 8; 4 when there is none.
inline unsigned dataWidth(const std::string& opcode) {
    size_t b = 0;
    while (b <= opcode.size()) {
        size_t e = opcode.find('.', b);
        if (e == std::string::npos) e = opcode.size();
        const std::string t = opcode.substr(b, e - b);
        const auto digits = [](const std::string& d) {
            return !d.empty() && d.find_first_not_of("0123456789") == std::string::npos;
        };
        if (digits(t)) return static_cast<unsigned>(std::stoul(t)) / 8;
        if (!t.empty() && t[0] == 'U' && digits(t.substr(1))) return static_cast<unsigned>(std::stoul(t.substr(1))) / 8;
        b = e + 1;
    }
    return 4;
}

// [T5] the address part: with compression, base_stride_compress (the active lanes one run from
// the first active lane, which must have lane + 1 active, with one step; the step is an int),
// else base_delta_compress; without, every active lane's address.
inline void appendAddresses(std::string& s, const Inst& in, bool compress) {
    const uint32_t mask = in.mask;
    if (!compress) {
        appendf(s, "%u ", 0u);  // [T5] fprintf("%u ", address_format::list_all)
        for (unsigned l = 0; l < 32; ++l)
            if (mask >> l & 1u) appendf(s, "0x%016lx ", static_cast<unsigned long>(in.addr[l]));  // [T5] "0x%016lx "
        return;
    }
    bool constStride = true, first = false, last = false;
    uint64_t base = 0;
    int stride = 0;
    for (unsigned l = 0; l < 32; ++l) {
        const bool on = mask >> l & 1u;
        if (on && !first) {
            first = true;
            base = in.addr[l];
            if (l < 31 && (mask >> (l + 1) & 1u)) {
                stride = static_cast<int>(in.addr[l + 1] - in.addr[l]);
            } else {
                constStride = false;
                break;
            }
        } else if (first && !last) {
            if (on) {
                if (static_cast<uint64_t>(static_cast<long long>(stride)) != in.addr[l] - in.addr[l - 1]) {
                    constStride = false;
                    break;
                }
            } else {
                last = true;
            }
        } else if (last && on) {
            constStride = false;
            break;
        }
    }
    if (constStride) {
        appendf(s, "%u 0x%llx %d ", 1u, static_cast<unsigned long long>(base), stride);  // [T5] base_stride
        return;
    }
    bool seen = false;
    uint64_t prev = 0;
    for (unsigned l = 0; l < 32; ++l) {
        if (!(mask >> l & 1u)) continue;
        if (!seen) appendf(s, "%u 0x%llx ", 2u, static_cast<unsigned long long>(in.addr[l]));  // [T5] base_delta
        else appendf(s, "%lld ", static_cast<long long>(in.addr[l] - prev));  // [T5] "%lld " per delta
        prev = in.addr[l];
        seen = true;
    }
}

// [U] Val: for each destination and then each source register, the count of values (one per
// active lane) and the values; the lane's value here is a made-up function of lane and operand.
inline void appendValues(std::string& s, const Inst& in) {
    if (!in.values) {
        s += "NoVal ";  // [U] Val|NoVal
        return;
    }
    s += "Val ";
    const unsigned active = popcount(in.mask);
    unsigned k = 0;
    for (const std::vector<Reg>* list : {&in.dst, &in.src})
        for (size_t i = 0; i < list->size(); ++i, ++k) {
            appendf(s, "%u ", active);  // [U] [dest_val_num] / [src_valK_num]
            for (unsigned l = 0; l < 32; ++l)
                if (in.mask >> l & 1u) appendf(s, "%x ", 0x100u * k + l);  // [U] [dest_val] ... / [src_valK] ...
        }
}

} // namespace detail

// One instruction line as post-processing leaves it ([P]: the text after the leading
// thread-block and warp fields; the tracer's trailing space stays).
inline std::string instructionLine(const Inst& in, const Layout& lay) {
    using detail::appendf;
    std::string s;
    if (lay.lineinfo) appendf(s, "%d ", in.lineNum);         // [T5] if (lineinfo) fprintf("%d ", ma->line_num)
    appendf(s, "%04x ", in.pc);                              // [T5] "%04x " ma->vpc
    appendf(s, "%08x ", in.mask);                            // [T5] "%08x " active_mask & predicate_mask
    appendf(s, "%d ", static_cast<int>(in.dst.size()));      // [T5] "1 " / "0 " (one GPRDst at most; [U] more)
    for (const Reg& r : in.dst) s += detail::regText(r, lay.regs) + " ";
    s += in.opcode + " ";                                    // [T5] "%s " id_to_opcode_map[opcode_id]
    appendf(s, "%d ", static_cast<int>(in.src.size()));      // [T5] "%d " src_count
    for (const Reg& r : in.src) s += detail::regText(r, lay.regs) + " ";
    if (in.mem) {
        appendf(s, "%d ", detail::dataWidth(in.opcode));     // [T5] "%d " get_datawidth_from_opcode(tokens)
        detail::appendAddresses(s, in, lay.compress);
    } else {
        s += "0 ";                                           // [T5] else fprintf("0 ")
    }
    for (unsigned i = 0; i < lay.immediates; ++i)
        appendf(s, "%lld ", i < in.imm.size() ? in.imm[i] : 0ll);  // [T5] "%d " ma->imm; [U] the second
    if (lay.tracerVersion >= 6) detail::appendValues(s, in);
    return s;                                                // [T5] then fprintf("\n")
}

// The #traces format line of a layout.
inline std::string tracesFormat(const Layout& lay) {
    if (lay.tracerVersion <= 4)  // [T3] (version 4: no stored tracer; trace_parser.cc reads 3 and up alike)
        return "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num [reg_dests] "
               "opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]";
    std::string f = "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
                    "mem_width [adrrescompress?] [mem_addresses]";  // [T5]
    if (lay.immediates == 1) f += " immediate";                   // [T5]
    if (lay.immediates == 2) f += " immediate1 immediate2";       // [U]
    if (lay.tracerVersion >= 6)
        f += " Val|NoVal [dest_val_num] [dest_val] ... [src_val1_num] [src_val1] ... [...] [src_valX_num] "
             "[src_valX] ...";                                    // [U]
    return f;
}

// The whole post-processed kernel-N.traceg.
inline std::string traceg(const Kernel& k) {
    using detail::appendf;
    std::string s;
    const Layout& lay = k.layout;
    s += "-kernel name = " + k.name + "\n";                                               // [T5]
    appendf(s, "-kernel id = %d\n", k.id);                                                 // [T5]
    appendf(s, "-grid dim = (%d,%d,%d)\n", k.grid[0], k.grid[1], k.grid[2]);               // [T5]
    appendf(s, "-block dim = (%d,%d,%d)\n", k.block[0], k.block[1], k.block[2]);           // [T5]
    appendf(s, "-shmem = %d\n", k.shmem);                                                  // [T5]
    appendf(s, "-nregs = %d\n", k.nregs);                                                  // [T5]
    appendf(s, "-binary version = %d\n", k.binaryVersion);                                 // [T5]
    appendf(s, "-cuda stream id = %lu\n", static_cast<unsigned long>(k.stream));           // [T5]
    appendf(s, "-shmem base_addr = 0x%016lx\n", static_cast<unsigned long>(k.shmemBase));  // [T5]
    appendf(s, "-local mem base_addr = 0x%016lx\n", static_cast<unsigned long>(k.localBase));  // [T5]
    s += "-nvbit version = " + k.nvbitVersion + "\n";                                      // [T5]
    appendf(s, "-accelsim tracer version = %u\n", lay.tracerVersion);                      // [T5]
    if (lay.tracerVersion >= 5) appendf(s, "-enable lineinfo = %d\n", lay.lineinfo ? 1 : 0);  // [T5]; not in [T3]
    s += "\n";                                                                             // [T5] "\n"
    s += tracesFormat(lay) + "\n";
    s += "\n";                                                                             // [T5] "\n"
    for (const Cta& c : k.ctas) {
        s += "\n#BEGIN_TB\n";                                                              // [P]
        appendf(s, "\nthread block = %u,%u,%u\n", c.x, c.y, c.z);                          // [P]
        if (lay.clusterLines) {
            s += "cluster id = 0,0,0\n";                                                   // [P]
            appendf(s, "cluster cta = %u,%u,%u\n", c.x, c.y, c.z);                         // [P] (one cluster per block)
            s += "cluster rank = 0\n";                                                     // [P]
        }
        for (size_t w = 0; w < c.warps.size(); ++w) {
            appendf(s, "\nwarp = %zu\n", w);                                               // [P]
            appendf(s, "insts = %zu\n", c.warps[w].insts.size());                          // [P]
            for (const Inst& in : c.warps[w].insts) s += instructionLine(in, lay) + "\n";  // [P] **it << "\n"
        }
        s += "\n#END_TB\n";                                                                // [P] endl << "#END_TB" << endl
    }
    return s;
}

// [T5] "kernel-%d.trace" or [T5c] "kernel-%d-ctx_0x%lx.trace", then [P]'s "g".
inline std::string fileName(const Kernel& k) {
    char b[96];
    if (k.ctx) std::snprintf(b, sizeof b, "kernel-%u-ctx_0x%lx.traceg", k.id, static_cast<unsigned long>(k.ctx));
    else std::snprintf(b, sizeof b, "kernel-%u.traceg", k.id);
    return b;
}

using Command = std::variant<Memcpy, Kernel>;

// Writes each kernel's .traceg and kernelslist.g (in the commands' order) into `dir`.
inline void writeApplication(const std::filesystem::path& dir, const std::vector<Command>& commands) {
    std::filesystem::create_directories(dir);
    std::string list;
    for (const Command& c : commands) {
        if (const Memcpy* m = std::get_if<Memcpy>(&c)) {
            char b[96];
            std::snprintf(b, sizeof b, "MemcpyHtoD,0x%016lx,%lld", static_cast<unsigned long>(m->dst),
                          static_cast<long long>(m->bytes));  // [T5] sprintf "MemcpyHtoD,0x%016lx,%lld"
            list += std::string(b) + "\n";                    // [P] copied as it is
            continue;
        }
        const Kernel& k = std::get<Kernel>(c);
        std::ofstream(dir / fileName(k), std::ios::binary) << traceg(k);
        list += fileName(k) + "\n";  // [P] line + "g"
    }
    std::ofstream(dir / "kernelslist.g", std::ios::binary) << list;
}

} // namespace gpusim::tb::accelsim
