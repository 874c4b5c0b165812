#include "workloads/trace/TraceWriter.hpp"

#include <lzma.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>

#include "common/SimError.hpp"
#include "workloads/trace/RegisterName.hpp"

namespace gpusim {

namespace {

// A file written plain or through the xz encoder.
class OutFile {
public:
    OutFile(const std::string& path, bool xz) : path_(path) {
        f_ = std::fopen(path.c_str(), "wb");
        if (!f_) throw InputError("--out: " + path + ": cannot open for writing (" + std::strerror(errno) + ")");
        if (xz) {
            xz_ = true;
            if (lzma_easy_encoder(&strm_, 1, LZMA_CHECK_CRC64) != LZMA_OK) {
                std::fclose(f_);
                throw ModelError("trace export: cannot start the xz encoder");
            }
        }
    }
    ~OutFile() {
        if (xz_) lzma_end(&strm_);
        if (f_) std::fclose(f_);
    }
    void write(const std::string& s) { write(s.data(), s.size(), LZMA_RUN); }
    void close() {
        if (xz_) write(nullptr, 0, LZMA_FINISH);
        const bool bad = std::ferror(f_) != 0;
        const int rc = std::fclose(f_);
        f_ = nullptr;
        if (bad || rc != 0) throw InputError("--out: " + path_ + ": write failed");
    }

private:
    void write(const char* data, size_t n, lzma_action action) {
        if (!xz_) {
            if (n && std::fwrite(data, 1, n, f_) != n) throw InputError("--out: " + path_ + ": write failed");
            return;
        }
        strm_.next_in = reinterpret_cast<const uint8_t*>(data);
        strm_.avail_in = n;
        uint8_t out[1 << 16];
        for (;;) {
            strm_.next_out = out;
            strm_.avail_out = sizeof out;
            const lzma_ret r = lzma_code(&strm_, action);
            const size_t produced = sizeof out - strm_.avail_out;
            if (produced && std::fwrite(out, 1, produced, f_) != produced)
                throw InputError("--out: " + path_ + ": write failed");
            if (r == LZMA_STREAM_END) return;
            if (r != LZMA_OK) throw ModelError("trace export: xz encoder error " + std::to_string(int(r)));
            if (action == LZMA_RUN && strm_.avail_in == 0) return;
        }
    }

    std::string path_;
    std::FILE* f_ = nullptr;
    bool xz_ = false;
    lzma_stream strm_ = LZMA_STREAM_INIT;
};

void appendf(std::string& s, const char* fmt, auto... args) {
    char b[48];
    const int n = std::snprintf(b, sizeof b, fmt, args...);
    s.append(b, static_cast<size_t>(n));
}

const char* widthSuffix(unsigned bytes) {
    switch (bytes) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 4: return "";
    case 8: return ".64";
    case 16: return ".128";
    }
    return nullptr;
}

std::string opcodeOf(const WarpInstruction& in) {
    switch (in.op) {
    case OpClass::Alu: return "FFMA";
    case OpClass::Sfu: return "MUFU.RCP";
    case OpClass::Barrier: return "BAR.SYNC";
    case OpClass::Exit: return "EXIT";
    // The export declares binary version 70, whose table has HMMA (Volta's 8x8x4 step form).
    case OpClass::Tensor: return "HMMA.884.F32.F32";
    case OpClass::Load:
    case OpClass::Store: break;
    }
    const char* suffix = widthSuffix(in.accessBytes);
    if (!suffix)
        throw ModelError("trace export: a memory instruction at PC " + std::to_string(in.pc) + " accesses " +
                         std::to_string(in.accessBytes) + " bytes per lane (the format takes 1, 2, 4, 8 or 16)");
    const bool load = in.op == OpClass::Load;
    switch (in.space) {
    case MemSpace::Shared: return std::string(load ? "LDS" : "STS") + suffix;
    case MemSpace::Local: return std::string(load ? "LDL" : "STL") + suffix;
    case MemSpace::Global: break;
    case MemSpace::Constant:
    case MemSpace::Texture:
        // Read-only spaces: the width is the line's mem_width (TEX has no width suffix).
        if (!load)
            throw ModelError("trace export: a store to the " +
                             std::string(in.space == MemSpace::Constant ? "constant" : "texture") +
                             " space at PC " + std::to_string(in.pc));
        return in.space == MemSpace::Constant ? std::string("LDC") + suffix : std::string("TEX");
    }
    // Global atomics as the reader takes them back: ATOM returns a value, RED does not.
    if (in.atomic) return std::string(load ? "ATOM.E.ADD" : "RED.E.ADD") + suffix;
    return std::string(load ? "LDG.E" : "STG.E") + suffix;
}

void appendReg(std::string& s, uint16_t r, uint64_t pc) {
    const std::string name = registerName(r);
    if (name.empty())
        throw ModelError("trace export: register " + std::to_string(r) + " at PC " + std::to_string(pc) +
                         " cannot be written (" + kRegisterNames + ")");
    s += name;
    s += ' ';
}

// The tracer's choice (tracer_tool.cu, base_stride_compress / base_delta_compress).
void appendAddresses(std::string& s, uint32_t mask, const std::array<uint64_t, kWarpSize>& addr) {
    bool strided = true;
    int64_t stride = 0;
    if (mask != 0) {
        const unsigned first = static_cast<unsigned>(__builtin_ctz(mask));
        const uint32_t run = mask >> first;
        if ((run & (run + 1)) != 0 || (run & 2u) == 0) {
            strided = false;  // active lanes not one run, or a run of one lane
        } else {
            stride = static_cast<int64_t>(addr[first + 1] - addr[first]);
            if (stride < std::numeric_limits<int32_t>::min() || stride > std::numeric_limits<int32_t>::max())
                strided = false;
            for (unsigned lane = first + 2; strided && lane < kWarpSize && (mask >> lane & 1u); ++lane)
                strided = static_cast<int64_t>(addr[lane] - addr[lane - 1]) == stride;
        }
    }
    if (strided) {
        appendf(s, "1 0x%llx %lld ", static_cast<unsigned long long>(mask ? addr[__builtin_ctz(mask)] : 0),
                static_cast<long long>(stride));
        return;
    }
    bool first = true;
    uint64_t prev = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(mask >> lane & 1u)) continue;
        if (first) appendf(s, "2 0x%llx ", static_cast<unsigned long long>(addr[lane]));
        else appendf(s, "%lld ", static_cast<long long>(addr[lane] - prev));
        prev = addr[lane];
        first = false;
    }
}

void appendLine(std::string& s, const WarpInstruction& in) {
    appendf(s, "%04llx %08x ", static_cast<unsigned long long>(in.pc), unsigned(in.activeMask));
    appendf(s, "%u ", unsigned(in.numDst));
    for (unsigned i = 0; i < in.numDst; ++i) appendReg(s, in.dst[i], in.pc);
    s += opcodeOf(in);
    appendf(s, " %u ", unsigned(in.numSrc));
    for (unsigned i = 0; i < in.numSrc; ++i) appendReg(s, in.src[i], in.pc);
    if (in.isMemory()) {
        appendf(s, "%u ", unsigned(in.accessBytes));
        appendAddresses(s, in.activeMask, in.addr);
    } else {
        s += "0 ";
    }
    s += "0 ";  // v5 immediate
}

std::string dims(const Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

} // namespace

std::string formatInstructionLine(const WarpInstruction& in) {
    std::string s;
    appendLine(s, in);
    return s;
}

TraceExportSummary exportTrace(const Workload& workload, const std::string& dir, const TraceExportOptions& opt) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw InputError("--out: " + dir + ": cannot create (" + ec.message() + ")");
    TraceExportSummary sum;
    std::string list;
    const auto& kernels = workload.kernels();
    for (size_t k = 0; k < kernels.size(); ++k) {
        const Kernel& kernel = *kernels[k];
        const KernelInfo& info = kernel.info();
        const std::string file = "kernel-" + std::to_string(k + 1) + ".traceg" + (opt.xz ? ".xz" : "");
        list += file + "\n";
        OutFile out(dir + "/" + file, opt.xz);
        std::string h;
        h += "-kernel name = " + info.name + "\n";
        h += "-kernel id = " + std::to_string(k + 1) + "\n";
        h += "-grid dim = " + dims(info.grid) + "\n";
        h += "-block dim = " + dims(info.block) + "\n";
        h += "-shmem = " + std::to_string(info.smemPerCta) + "\n";
        h += "-nregs = " + std::to_string(info.regsPerThread) + "\n";
        h += "-binary version = 70\n";
        h += "-cuda stream id = " + std::to_string(info.stream) + "\n";
        h += "-shmem base_addr = 0x0000000000000000\n";
        h += "-local mem base_addr = 0x0000000000000000\n";
        h += "-nvbit version = none (gpusim trace export)\n";
        h += "-accelsim tracer version = 5\n";
        h += "-enable lineinfo = 0\n\n";
        h += "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
             "[adrrescompress?] [mem_addresses] immediate\n\n";
        out.write(h);
        std::string body;
        WarpInstruction in;
        for (uint64_t cta = 0; cta < info.ctas(); ++cta) {
            const Dim3 c{unsigned(cta % info.grid.x), unsigned(cta / info.grid.x % info.grid.y),
                         unsigned(cta / (uint64_t(info.grid.x) * info.grid.y))};
            out.write("\n#BEGIN_TB\n\nthread block = " + std::to_string(c.x) + "," + std::to_string(c.y) + "," +
                      std::to_string(c.z) + "\n");
            for (unsigned w = 0; w < info.warpsPerCta(); ++w) {
                body.clear();
                uint64_t n = 0;
                auto stream = kernel.warp(cta, w);
                while (stream->next(in)) {
                    appendLine(body, in);
                    body += '\n';
                    ++n;
                }
                out.write("\nwarp = " + std::to_string(w) + "\ninsts = " + std::to_string(n) + "\n");
                out.write(body);
                ++sum.warps;
                sum.instructions += n;
            }
            out.write("#END_TB\n");
        }
        out.close();
        sum.files.push_back(dir + "/" + file);
    }
    OutFile lf(dir + "/kernelslist.g", false);
    lf.write(list);
    lf.close();
    sum.files.insert(sum.files.begin(), dir + "/kernelslist.g");
    return sum;
}

} // namespace gpusim
