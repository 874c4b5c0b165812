#include "workloads/trace/TraceFileReader.hpp"

#include <charconv>
#include <set>

#include "common/SimError.hpp"
#include "workloads/InstructionFactory.hpp"
#include "workloads/trace/TraceText.hpp"

namespace gpusim {

namespace {

using trace_text::parseU64;
using trace_text::trim;

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "KEYWORD = VALUE" with KEYWORD a whole word: the trimmed VALUE, or false.
bool keyword(std::string_view line, std::string_view word, std::string_view& value) {
    if (!startsWith(line, word)) return false;
    std::string_view rest = line.substr(word.size());
    if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '=') return false;
    rest = trim(rest);
    value = rest.empty() || rest[0] != '=' ? std::string_view() : trim(rest.substr(1));
    return true;
}

std::string quoted(std::string_view t) { return trace_text::quoted(t, 60); }

// "X,Y,Z", optionally in parentheses.
bool parseDim(std::string_view t, uint64_t out[3]) {
    if (!t.empty() && t.front() == '(') {
        if (t.back() != ')') return false;
        t = t.substr(1, t.size() - 2);
    }
    for (int i = 0; i < 3; ++i) {
        const size_t comma = t.find(',');
        if ((i < 2) != (comma != std::string_view::npos)) return false;
        if (!parseU64(trim(t.substr(0, comma)), out[i])) return false;
        if (i < 2) t = t.substr(comma + 1);
    }
    return true;
}

std::string dimText(const Dim3& d) {
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

uint32_t existingLanes(const Dim3& block, unsigned warp) {
    const uint64_t first = uint64_t(warp) * kWarpSize, threads = block.size();
    if (threads >= first + kWarpSize) return 0xffffffffu;
    return threads > first ? (1u << (threads - first)) - 1 : 0;
}

} // namespace

TraceFileReader::TraceFileReader(std::unique_ptr<LineReader> in) : in_(std::move(in)) { readHeader(); }

void TraceFileReader::fail(const std::string& reason) const { throw InputError(in_->where() + reason); }

void TraceFileReader::readHeader() {
    std::set<std::string, std::less<>> seen;
    std::string_view raw;
    KernelTraceHeader& h = header_;
    while (in_->next(raw)) {
        const std::string_view line = trim(raw);
        if (line.empty()) continue;
        if (line[0] == '#') {
            if (startsWith(line, "#BEGIN_TB")) {
                pendingBegin_ = true;
                break;
            }
            std::string_view v;
            if (keyword(line, "#traces format", v)) {
                if (format_.tail) fail("#traces format given twice");
                try {
                    format_.tail = parseTracesFormat(v);
                } catch (const InputError& e) {
                    fail(e.what());
                }
                h.tracesFormat = std::string(v);
            }
            continue;
        }
        if (line[0] != '-') fail("unexpected " + quoted(line) + " in the header (before the first #BEGIN_TB)");
        const size_t eq = line.find('=');
        if (eq == std::string_view::npos) fail("header line " + quoted(line) + " has no '='");
        const std::string key(trim(line.substr(1, eq - 1)));
        const std::string_view value = trim(line.substr(eq + 1));
        const auto number = [&](uint64_t& dst, int base = 10) {
            if (!parseU64(value, dst, base))
                fail("-" + key + ": bad " + (base == 16 ? "hex " : "") + "number " + quoted(value));
        };
        const auto dims = [&](Dim3& dst) {
            uint64_t d[3];
            if (!parseDim(value, d)) fail("-" + key + ": expected (X,Y,Z), found " + quoted(value));
            for (uint64_t v : d)
                if (v == 0 || v > 0xffffffffull) fail("-" + key + ": " + quoted(value) + " has a zero or too large size");
            dst = {unsigned(d[0]), unsigned(d[1]), unsigned(d[2])};
        };
        bool known = true;
        if (key == "kernel name") {
            if (value.empty()) fail("-kernel name is empty");
            h.kernelName = std::string(value);
        } else if (key == "kernel id") {
            number(h.kernelId);
        } else if (key == "grid dim") {
            dims(h.grid);
            // CUDA's limits; they also keep the block count within 64 bits.
            if (h.grid.x > 0x7fffffffu || h.grid.y > 65535 || h.grid.z > 65535)
                fail("-grid dim " + quoted(value) + " exceeds CUDA's limits (2^31-1, 65535, 65535)");
        } else if (key == "block dim") {
            dims(h.block);
            if (h.block.size() > 1024) fail("-block dim " + quoted(value) + " has more than 1024 threads (CUDA's limit)");
        } else if (key == "shmem") {
            number(h.shmem);
            if (h.shmem > 0xffffffffull) fail("-shmem " + quoted(value) + " is too large");
        } else if (key == "nregs") {
            number(h.nregs);
            if (h.nregs > 256) fail("-nregs " + quoted(value) + " exceeds 256");
        } else if (key == "binary version") {
            number(h.binaryVersion);
        } else if (key == "cuda stream id") {
            number(h.cudaStreamId);
        } else if (key == "shmem base_addr") {
            number(h.shmemBaseAddr, 16);
        } else if (key == "local mem base_addr") {
            number(h.localMemBaseAddr, 16);
        } else if (key == "nvbit version") {
            h.nvbitVersion = std::string(value);
        } else if (key == "accelsim tracer version") {
            uint64_t v = 0;
            number(v);
            if (v < 3 || v > 6) fail("-accelsim tracer version " + std::to_string(v) + " is not supported (3 to 6)");
            h.tracerVersion = static_cast<unsigned>(v);
        } else if (key == "enable lineinfo") {
            uint64_t v = 0;
            number(v);
            if (v > 1) fail("-enable lineinfo: expected 0 or 1, found " + quoted(value));
            h.lineinfo = v == 1;
        } else {
            known = false;  // Accel-Sim ignores keys it does not know; so do we
        }
        if (known && !seen.insert(key).second) fail("-" + key + " given twice");
    }
    for (const char* required : {"kernel name", "grid dim", "block dim", "accelsim tracer version"})
        if (!seen.count(required))
            fail(std::string("the header has no -") + required +
                 (pendingBegin_ ? "" : " (or the file ends before the first #BEGIN_TB)"));
    format_.version = h.tracerVersion;
    format_.lineinfo = h.lineinfo;
    decoding_.opcodes = chooseSassTable(h.binaryVersion);
    decoding_.windows = {h.shmemBaseAddr, h.localMemBaseAddr};
    warpsPerCta_ = static_cast<unsigned>((h.block.size() + kWarpSize - 1) / kWarpSize);
}

bool TraceFileReader::skippedAmongInstructions(std::string_view line) {
    std::string_view value;
    return line.empty() || (line[0] == 'c' && keyword(line, "cluster", value));
}

void TraceFileReader::finishWarp(ThreadBlockTrace& tb, unsigned warp, TraceTally& tally) const {
    PackedWarp& w = tb.warps[warp];
    WarpRest& rest = tb.rest[warp];
    rest.end = in_->lineStart();
    rest.exitMask = existingLanes(header_.block, warp);
    // A warp partly left in the file ends with the last line parsed (scratch_); its stream
    // appends the EXIT after reading that line again.
    if (rest.remaining > 0 ? scratch_.inst.op == OpClass::Exit : !w.empty() && w.lastOp() == OpClass::Exit) return;
    ++tally.appendedExits;
    if (rest.remaining > 0) return;
    WarpInstruction exit = inst::exit(w.empty() ? 0 : w.lastPc() + kSassInstructionBytes, rest.exitMask);
    w.append(exit);
}

void TraceFileReader::countUnknown(TraceTally& tally) const {
    const std::string_view m = sassMnemonic(scratch_.opcode);
    for (TraceTally::OpcodeCounts* counts :
         {&tally.unknownOpcodes, &tally.unknownOpcodesByVersion[header_.binaryVersion]}) {
        auto it = counts->find(m);
        if (it == counts->end()) it = counts->emplace(std::string(m), 0).first;
        ++it->second;
    }
    ++tally.unknownInstructions;
}

void TraceFileReader::countGeneric(TraceTally& tally) const {
    switch (scratch_.inst.space) {
    case MemSpace::Shared: ++tally.genericShared; break;
    case MemSpace::Local: ++tally.genericLocal; break;
    case MemSpace::Global: ++tally.genericGlobal; break;
    case MemSpace::Constant:
    case MemSpace::Texture: break;  // a generic access is never resolved to these
    }
    if (scratch_.genericMixed) ++tally.genericMixedWindows;
    if (!decoding_.windows.any()) ++tally.genericWithoutWindows;
}

void TraceFileReader::countReadOnly(TraceTally& tally) const {
    const bool constant = scratch_.cls.space == MemSpace::Constant;
    if (scratch_.inst.op == OpClass::Load)
        ++(constant ? tally.constantLoads : tally.textureLoads);
    else
        ++(constant ? tally.constantWithoutAddresses : tally.textureWithoutAddresses);
}

void TraceFileReader::readThreadBlock(uint64_t ctaId, ThreadBlockTrace& out, TraceTally& tally, uint64_t keep) {
    const Dim3& g = header_.grid;
    const Dim3 expected{unsigned(ctaId % g.x), unsigned(ctaId / g.x % g.y), unsigned(ctaId / (uint64_t(g.x) * g.y))};
    std::string_view raw;
    while (!pendingBegin_) {
        if (!in_->next(raw))
            fail("unexpected end of file: " + std::to_string(blocksRead_) + " of " + std::to_string(g.size()) +
                 " thread blocks read (truncated file?)");
        const std::string_view line = trim(raw);
        if (line.empty()) continue;
        if (startsWith(line, "#BEGIN_TB")) break;
        if (startsWith(line, "#END_TB")) fail("#END_TB without #BEGIN_TB");
        if (line[0] != '#') fail("expected #BEGIN_TB, found " + quoted(line));
    }
    pendingBegin_ = false;

    out.coords = expected;
    out.warps.assign(warpsPerCta_, PackedWarp());
    out.rest.assign(warpsPerCta_, WarpRest());
    std::vector<bool> seen(warpsPerCta_, false);
    bool haveCoords = false, haveInsts = false;
    long current = -1;
    uint64_t declared = 0, got = 0;
    const std::string block = "thread block " + dimText(expected);
    const auto closeWarp = [&] {
        if (current < 0) return;
        if (!haveInsts) fail("warp " + std::to_string(current) + " has no insts = line");
        if (got < declared)
            fail("warp " + std::to_string(current) + ": insts = " + std::to_string(declared) + " but " +
                 std::to_string(got) + " instruction lines follow");
        finishWarp(out, static_cast<unsigned>(current), tally);
        current = -1;
    };

    while (in_->next(raw)) {
        const std::string_view line = trim(raw);
        if (line.empty()) continue;
        std::string_view value;
        if (line[0] == '#') {
            if (startsWith(line, "#END_TB")) {
                closeWarp();
                if (!haveCoords) fail("#END_TB of a section without a thread block = line");
                for (unsigned w = 0; w < warpsPerCta_; ++w)
                    if (!seen[w])
                        fail(block + " has no warp " + std::to_string(w) + " (-block dim " + dimText(header_.block) +
                             " has " + std::to_string(warpsPerCta_) + " warps)");
                ++blocksRead_;
                out.end = in_->lineStart();
                return;
            }
            if (startsWith(line, "#BEGIN_TB")) fail("#BEGIN_TB inside " + block + " (missing #END_TB)");
            fail("unexpected " + quoted(line) + " inside " + block);
        }
        // Keyword lines start with t, c, w or i; instruction lines with a digit or a-f.
        const char c0 = line[0];
        const bool maybeKeyword = c0 == 't' || c0 == 'c' || c0 == 'w' || c0 == 'i';
        if (maybeKeyword && keyword(line, "thread block", value)) {
            uint64_t c[3];
            if (!parseDim(value, c)) fail("thread block: expected X,Y,Z, found " + quoted(value));
            if (haveCoords) fail("second thread block = line in one section (missing #END_TB)");
            if (c[0] != expected.x || c[1] != expected.y || c[2] != expected.z)
                fail("thread block " + std::string(value) + " where " + dimText(expected) +
                     " was expected (sections must be in linear block order, x fastest)");
            haveCoords = true;
        } else if (maybeKeyword && keyword(line, "cluster", value)) {
            // Cluster coordinates of newer post-processing: not modelled.
        } else if (maybeKeyword && keyword(line, "warp", value)) {
            closeWarp();
            if (!haveCoords) fail("warp = line before the thread block = line");
            uint64_t w = 0;
            if (!parseU64(value, w)) fail("warp: bad number " + quoted(value));
            if (w >= warpsPerCta_)
                fail("warp " + std::to_string(w) + " does not exist (-block dim " + dimText(header_.block) + " has " +
                     std::to_string(warpsPerCta_) + " warps)");
            if (seen[w]) fail("warp " + std::to_string(w) + " appears twice in " + block);
            seen[w] = true;
            current = static_cast<long>(w);
            haveInsts = false;
        } else if (maybeKeyword && keyword(line, "insts", value)) {
            if (current < 0) fail("insts = line without a warp = line before it");
            if (haveInsts) fail("second insts = line for warp " + std::to_string(current));
            if (!parseU64(value, declared)) fail("insts: bad number " + quoted(value));
            haveInsts = true;
            got = 0;
        } else {
            if (current < 0 || !haveInsts) fail("instruction line before warp = and insts = lines");
            if (got == declared)
                fail("warp " + std::to_string(current) + ": more instruction lines than insts = " +
                     std::to_string(declared));
            try {
                parseInstructionLine(line, format_, scratch_, decoding_);
            } catch (const InputError& e) {
                fail(e.what());
            }
            if (!scratch_.cls.known) countUnknown(tally);
            if (scratch_.cls.generic()) countGeneric(tally);
            if (scratch_.cls.op == OpClass::Load &&
                (scratch_.cls.space == MemSpace::Constant || scratch_.cls.space == MemSpace::Texture))
                countReadOnly(tally);
            PackedWarp& w = out.warps[static_cast<size_t>(current)];
            if (got <= keep && !w.empty() && w.lastOp() == OpClass::Exit) w.setLastOp(OpClass::Alu);
            if (got < keep) {
                w.append(scratch_.inst);
            } else if (got == keep) {
                out.rest[static_cast<size_t>(current)] = {declared - keep, in_->lineStart(), in_->lineNumber()};
            }
            ++got;
        }
    }
    if (current >= 0 && haveInsts && got < declared)
        fail("unexpected end of file: warp " + std::to_string(current) + " has " + std::to_string(got) + " of " +
             std::to_string(declared) + " instructions (truncated file?)");
    fail("unexpected end of file inside " + block + " (missing #END_TB)");
}

void TraceFileReader::expectEnd() {
    std::string_view raw;
    while (in_->next(raw)) {
        const std::string_view line = trim(raw);
        if (line.empty()) continue;
        if (startsWith(line, "#BEGIN_TB"))
            fail("more thread blocks than -grid dim (" + dimText(header_.grid) + ") holds");
        if (line[0] != '#') fail("unexpected " + quoted(line) + " after the last thread block");
    }
}

} // namespace gpusim
