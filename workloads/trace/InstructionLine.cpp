#include "workloads/trace/InstructionLine.hpp"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdint>
#include <string>

#include "common/SimError.hpp"
#include "workloads/trace/RegisterName.hpp"
#include "workloads/trace/TraceText.hpp"

namespace gpusim {

namespace {

constexpr unsigned kMaxDst = 2;
constexpr unsigned kMaxSrcInTrace = 5;  // the tracer's MAX_SRC

std::string quotedToken(std::string_view t) { return trace_text::quoted(t, 40); }

class Tokens {
public:
    explicit Tokens(std::string_view s) : s_(s) {}

    // The next token, or throws naming what was expected there.
    std::string_view take(const char* what) {
        std::string_view t;
        if (!next(t)) throw InputError(std::string("line ends before the ") + what);
        return t;
    }
    bool next(std::string_view& t) {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
        if (pos_ == s_.size()) return false;
        const size_t b = pos_;
        while (pos_ < s_.size() && s_[pos_] != ' ' && s_[pos_] != '\t') ++pos_;
        t = s_.substr(b, pos_ - b);
        return true;
    }

private:
    std::string_view s_;
    size_t pos_ = 0;
};

uint64_t hex(std::string_view t, const char* what) {
    std::string_view digits = t;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
    uint64_t v = 0;
    const char* end = digits.data() + digits.size();
    auto [p, ec] = std::from_chars(digits.data(), end, v, 16);
    if (digits.empty() || p != end) throw InputError(std::string("bad hex ") + what + " " + quotedToken(t));
    if (ec == std::errc::result_out_of_range) throw InputError(std::string(what) + " " + quotedToken(t) + " exceeds 64 bits");
    return v;
}

uint64_t decimal(std::string_view t, const char* what) {
    uint64_t v = 0;
    const char* end = t.data() + t.size();
    auto [p, ec] = std::from_chars(t.data(), end, v, 10);
    if (t.empty() || p != end || ec != std::errc()) throw InputError(std::string("bad ") + what + " " + quotedToken(t));
    return v;
}

int64_t signedDecimal(std::string_view t, const char* what) {
    int64_t v = 0;
    const char* end = t.data() + t.size();
    auto [p, ec] = std::from_chars(t.data(), end, v, 10);
    if (t.empty() || p != end || ec != std::errc()) throw InputError(std::string("bad ") + what + " " + quotedToken(t));
    return v;
}

// A decimal immediate: any signed or unsigned 64-bit value (the tracer prints "%d", newer
// tracers a 64-bit operand).
void immediate(std::string_view t) {
    int64_t s = 0;
    uint64_t u = 0;
    const char* end = t.data() + t.size();
    auto [ps, es] = std::from_chars(t.data(), end, s, 10);
    if (!t.empty() && ps == end && es == std::errc()) return;
    auto [pu, eu] = std::from_chars(t.data(), end, u, 10);
    if (!t.empty() && pu == end && eu == std::errc()) return;
    throw InputError("bad immediate " + quotedToken(t));
}

uint16_t reg(std::string_view t) {
    const std::optional<uint16_t> r = parseRegisterName(t);
    if (!r) throw InputError("bad register " + quotedToken(t) + " (expected " + kRegisterNames + ")");
    return *r;
}

std::string maskText(uint32_t mask) {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", mask);
    return b;
}

// Reads the addresses of the active lanes in the encoding `mode` into addr (inactive lanes 0).
void readAddresses(Tokens& tok, uint32_t mask, std::array<uint64_t, kWarpSize>& addr) {
    const uint64_t mode = decimal(tok.take("address mode"), "address mode");
    addr.fill(0);
    if (mode == 0) {
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
            if (mask >> lane & 1u) addr[lane] = hex(tok.take("address of an active lane (mode 0)"), "address");
        return;
    }
    if (mode == 1) {
        const uint64_t base = hex(tok.take("base address (mode 1)"), "base address");
        const int64_t stride = signedDecimal(tok.take("stride (mode 1)"), "stride");
        if (mask == 0) return;
        const uint32_t run = mask >> __builtin_ctz(mask);
        if ((run & (run + 1)) != 0)
            throw InputError("address mode 1 needs the active lanes in one run, mask is " + maskText(mask));
        uint64_t a = base;
        for (unsigned lane = __builtin_ctz(mask); lane < kWarpSize && (mask >> lane & 1u); ++lane) {
            addr[lane] = a;
            a += static_cast<uint64_t>(stride);
        }
        return;
    }
    if (mode == 2) {
        uint64_t a = hex(tok.take("base address (mode 2)"), "base address");
        bool first = true;
        for (unsigned lane = 0; lane < kWarpSize; ++lane) {
            if (!(mask >> lane & 1u)) continue;
            if (!first) a += static_cast<uint64_t>(signedDecimal(tok.take("delta of an active lane (mode 2)"), "delta"));
            addr[lane] = a;
            first = false;
        }
        return;
    }
    throw InputError("address mode " + std::to_string(mode) + " (expected 0, 1 or 2)");
}

// Tracer version 6: `NoVal`, or `Val` and the destination registers' values (hex), one per
// active lane or one per lane for each destination register.
void readValues(Tokens& tok, uint64_t numDst, uint32_t mask) {
    const std::string_view flag = tok.take("Val or NoVal");
    if (flag == "NoVal") return;
    if (flag != "Val") throw InputError("expected Val or NoVal, found " + quotedToken(flag));
    uint64_t n = 0;
    std::string_view t;
    while (tok.next(t)) {
        hex(t, "register value");
        ++n;
    }
    const uint64_t active = static_cast<uint64_t>(__builtin_popcount(mask));
    if (n == numDst * active || n == numDst * kWarpSize) return;
    const std::string regs = std::to_string(numDst) + " destination register" + (numDst == 1 ? "" : "s");
    std::string expected = std::to_string(numDst * active) + " (" + regs + " x " + std::to_string(active) +
                           " active lane" + (active == 1 ? "" : "s") + ")";
    if (active != kWarpSize) expected += " or " + std::to_string(numDst * kWarpSize) + " (" + regs + " x 32 lanes)";
    throw InputError("Val with " + std::to_string(n) + " register value" + (n == 1 ? "" : "s") + " where " +
                     expected + " were expected");
}

// Tracer version 6 as its format line lists the values one by one: after `Val`, for each
// destination register and then for each source register, in the line's order, the number of
// values (decimal) and the values (hex). A count is the active lanes (one value each) or 32
// (every lane); the values are checked as hex and dropped.
void readCountedValues(Tokens& tok, uint32_t mask, const uint16_t* dst, unsigned numDst, const uint16_t* src,
                       unsigned numSrc) {
    const std::string_view flag = tok.take("Val or NoVal");
    if (flag == "NoVal") return;
    if (flag != "Val") throw InputError("expected Val or NoVal, found " + quotedToken(flag));
    const uint64_t active = static_cast<uint64_t>(__builtin_popcount(mask));
    const auto operand = [&](unsigned i, uint16_t r) {
        const bool isDst = i < numDst;
        const unsigned k = isDst ? i : i - numDst;
        return std::string(isDst ? "destination " : "source ") + std::to_string(k + 1) + " (" + registerName(r) + ")";
    };
    // Messages are built only on an error: a version-6 line can hold hundreds of values.
    std::string_view t;
    for (unsigned i = 0; i < numDst + numSrc; ++i) {
        const uint16_t r = i < numDst ? dst[i] : src[i - numDst];
        if (!tok.next(t)) throw InputError("line ends before the value count of " + operand(i, r));
        const uint64_t n = decimal(t, "value count");
        if (n != active && n != kWarpSize)
            throw InputError("Val: " + std::to_string(n) + " value" + (n == 1 ? "" : "s") + " for " + operand(i, r) +
                             " where " + std::to_string(active) + " (the active lanes)" +
                             (active == kWarpSize ? "" : " or 32 (every lane)") + " were expected");
        for (uint64_t v = 0; v < n; ++v) {
            if (!tok.next(t))
                throw InputError("line ends before the value " + std::to_string(v + 1) + " of " + std::to_string(n) +
                                 " of " + operand(i, r));
            hex(t, "register value");
        }
    }
}

bool isRawTraceOnlyField(std::string_view t) {
    return t == "threadblock_x" || t == "threadblock_y" || t == "threadblock_z" || t == "warpid_tb" ||
           t.substr(0, 8) == "cluster_";
}

bool isAddressModeField(std::string_view t) {
    return t == "[adrrescompress?]" || t == "[addresscompress?]";
}

bool isValuesName(std::string_view t) {
    if (t.size() < 3 || t.front() != '[' || t.back() != ']') return false;
    for (size_t i = 1; i + 3 <= t.size(); ++i) {
        const std::string_view w = t.substr(i, 3);
        if ((w[0] == 'v' || w[0] == 'V') && (w[1] == 'a' || w[1] == 'A') && (w[2] == 'l' || w[2] == 'L')) return true;
    }
    return false;
}

} // namespace

TraceLineTail versionTail(unsigned version) {
    TraceLineTail t;
    if (version == 5) {
        t.immediates = 1;
        t.immediatesOptional = true;
    } else if (version >= 6) {
        t.immediates = 2;
        t.values = true;
    }
    return t;
}

TraceLineTail parseTracesFormat(std::string_view text) {
    Tokens tok(text);
    std::string_view t;
    bool have = tok.next(t);
    const auto fail = [](const std::string& reason) { throw InputError("#traces format: " + reason); };
    while (have && isRawTraceOnlyField(t)) have = tok.next(t);
    if (have && (t == "[line_num]" || t == "line_num")) have = tok.next(t);
    static constexpr const char* kCore[] = {
        "PC", "mask", "dest_num", "[reg_dests]", "opcode", "src_num", "[reg_srcs]", "mem_width",
        "[adrrescompress?]", "[mem_addresses]"};
    for (const char* want : kCore) {
        if (!have) fail(std::string("ends before '") + want + "'");
        const bool ok = std::string_view(want) == "[adrrescompress?]" ? isAddressModeField(t) : t == want;
        if (!ok) fail(quotedToken(t) + " where '" + want + "' was expected");
        have = tok.next(t);
    }
    TraceLineTail tail;
    if (have && t == "immediate") {
        tail.immediates = 1;
        have = tok.next(t);
    } else if (have && t == "immediate1") {
        have = tok.next(t);
        if (!have || t != "immediate2") fail("'immediate1' without 'immediate2' after it");
        tail.immediates = 2;
        have = tok.next(t);
    }
    if (have && t == "Val|NoVal") {
        tail.values = true;
        have = tok.next(t);
        if (have && t == "[dest_val_num]") {
            // The value fields one by one: [dest_val_num] [dest_val] ... then, per source,
            // [src_valK_num] [src_valK] ... (K a number or X), with [...] between them.
            tail.valueCounts = true;
            const auto expect = [&](std::string_view want) {
                if (!have) fail("ends before '" + std::string(want) + "'");
                if (t != want) fail(quotedToken(t) + " where '" + std::string(want) + "' was expected");
                have = tok.next(t);
            };
            expect("[dest_val_num]");
            expect("[dest_val]");
            expect("...");
            bool sources = false;
            while (have) {
                if (t == "[...]") {
                    have = tok.next(t);
                    continue;
                }
                if (t.size() < 14 || t.substr(0, 8) != "[src_val" || t.substr(t.size() - 5) != "_num]") break;
                const std::string id(t.substr(8, t.size() - 13));
                have = tok.next(t);
                expect("[src_val" + id + "]");
                expect("...");
                sources = true;
            }
            if (!sources) fail("'[dest_val_num] [dest_val] ...' without the sources' '[src_val1_num] [src_val1] ...'");
        } else if (have && isValuesName(t)) {
            have = tok.next(t);
        }
    }
    if (have)
        fail("unknown field " + quotedToken(t) +
             " (after [mem_addresses] this reader knows immediate, immediate1 immediate2, Val|NoVal [values])");
    return tail;
}

void parseInstructionLine(std::string_view line, const TraceLineFormat& fmt, ParsedLine& out,
                          const TraceDecoding& decoding) {
    Tokens tok(line);
    WarpInstruction& in = out.inst;
    if (fmt.lineinfo) decimal(tok.take("source line number"), "source line number");
    in.pc = hex(tok.take("PC"), "PC");
    const std::string_view maskTok = tok.take("active mask");
    const uint64_t mask = hex(maskTok, "active mask");
    if (mask > 0xffffffffull) throw InputError("active mask " + quotedToken(maskTok) + " is wider than 32 lanes");
    in.activeMask = static_cast<uint32_t>(mask);

    const uint64_t nd = decimal(tok.take("dest_num"), "dest_num");
    if (nd > kMaxDst) throw InputError("dest_num " + std::to_string(nd) + " exceeds " + std::to_string(kMaxDst));
    in.numDst = static_cast<uint8_t>(nd);
    in.dst = {kNoReg, kNoReg};
    for (unsigned i = 0; i < nd; ++i) in.dst[i] = reg(tok.take("destination register"));

    out.opcode = tok.take("opcode");
    const char c0 = out.opcode[0];
    if (!((c0 >= 'A' && c0 <= 'Z') || (c0 >= 'a' && c0 <= 'z')))
        throw InputError("bad opcode " + quotedToken(out.opcode) + " (dest_num does not match the registers?)");
    out.cls = classifySass(out.opcode, decoding.opcodes);
    in.op = out.cls.op;
    in.space = out.cls.space;

    const uint64_t ns = decimal(tok.take("src_num"), "src_num");
    if (ns > kMaxSrcInTrace) throw InputError("src_num " + std::to_string(ns) + " exceeds " + std::to_string(kMaxSrcInTrace));
    in.src = {kNoReg, kNoReg, kNoReg, kNoReg};
    in.numSrc = 0;
    std::array<uint16_t, kMaxSrcInTrace> srcs{};
    for (unsigned i = 0; i < ns; ++i) {
        const uint16_t r = reg(tok.take("source register"));
        srcs[i] = r;
        if (in.numSrc < in.src.size()) in.src[in.numSrc++] = r;
    }

    const uint64_t width = decimal(tok.take("mem_width"), "mem_width");
    // Constant and texture loads without addresses (every such line of Accel-Sim's tracer) run
    // as ALU, as before the SM had those caches (SassOpcodes.hpp).
    if (width == 0 && in.op == OpClass::Load && (in.space == MemSpace::Constant || in.space == MemSpace::Texture)) {
        in.op = OpClass::Alu;
        in.space = MemSpace::Global;
    }
    const bool memOp = in.op == OpClass::Load || in.op == OpClass::Store;
    // Global atomics go to the L2 (WarpInstruction::atomic). An ATOM whose result is not kept
    // (no destination register in the line) waits for nothing, like a RED.
    in.atomic = memOp && out.cls.atomic() && in.space == MemSpace::Global;
    if (in.atomic && in.op == OpClass::Load && in.numDst == 0) in.op = OpClass::Store;
    in.accessBytes = 0;
    out.genericMixed = false;
    if (width != 0) {
        if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
            throw InputError("mem_width " + std::to_string(width) + " (expected 0, 1, 2, 4, 8 or 16)");
        // Addresses of instructions the model does not send to memory (surfaces, cache control,
        // unknown opcodes) are checked and dropped.
        readAddresses(tok, in.activeMask, in.addr);
        if (memOp) in.accessBytes = static_cast<uint8_t>(width);
        if (out.cls.generic()) {
            const GenericResolution g = resolveGeneric(in.activeMask, in.addr, decoding.windows);
            in.space = g.space;
            out.genericMixed = g.mixed;
        }
    } else if (memOp) {
        throw InputError(std::string(sassMnemonic(out.opcode)) + " without memory addresses (mem_width 0)");
    }

    const TraceLineTail tail = fmt.tail ? *fmt.tail : versionTail(fmt.version);
    std::string_view extra;
    for (unsigned i = 0; i < tail.immediates; ++i) {
        const char* what = tail.immediates == 1 ? "immediate" : i == 0 ? "first immediate" : "second immediate";
        if (tail.immediatesOptional) {
            if (!tok.next(extra)) break;
        } else {
            extra = tok.take(what);
        }
        immediate(extra);
    }
    if (tail.values && tail.valueCounts)
        readCountedValues(tok, in.activeMask, in.dst.data(), static_cast<unsigned>(nd), srcs.data(),
                          static_cast<unsigned>(ns));
    else if (tail.values)
        readValues(tok, nd, in.activeMask);
    if (tok.next(extra))
        throw InputError("unexpected " + quotedToken(extra) + " after the instruction (a count does not match its list?)");
}

} // namespace gpusim
