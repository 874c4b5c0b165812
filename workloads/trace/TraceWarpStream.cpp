#include "workloads/trace/TraceWarpStream.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/SimError.hpp"
#include "workloads/InstructionFactory.hpp"
#include "workloads/trace/TraceKernel.hpp"
#include "workloads/trace/TraceText.hpp"

namespace gpusim {

namespace {

// Bytes read from the file at a time when a window needs more than its first read. A window is
// a few hundred lines of typically 30 to 700 bytes; what is read past its last line is read
// again by the next window, so the first read of a window asks for what the previous window
// took, plus a margin (kReadMargin): one pread per window, little read twice.
constexpr size_t kReadChunk = size_t(16) << 10;
constexpr size_t kReadMargin = 512;

} // namespace

TraceWarpStream::TraceWarpStream(std::shared_ptr<const TraceWarpSource> source, PackedWarp first, const WarpRest& rest)
    : source_(std::move(source)), window_(std::move(first)), rest_(rest), restBegin_(rest.offset) {}

bool TraceWarpStream::next(WarpInstruction& out) {
    if (window_.read(pos_, out)) return true;
    if (rest_.remaining > 0) {
        refill();
        if (window_.read(pos_, out)) return true;
    }
    window_ = PackedWarp();  // the warp is done: free its window now, not when it retires
    pos_ = 0;
    return false;
}

void TraceWarpStream::fail(uint64_t line, const std::string& reason) const {
    const std::string message = source_->bytes->name() + ":" + std::to_string(line) + ": " + reason;
    if (source_->state) source_->state->defer(message);
    throw InputError(message);
}

void TraceWarpStream::refill() {
    window_ = PackedWarp();
    pos_ = 0;
    // The calling thread's buffer: SMs stepping in parallel each read into their own.
    thread_local std::vector<char> buf(kReadChunk);
    thread_local ParsedLine parsed;
    uint64_t base = rest_.offset;  // file offset of buf[0]
    size_t at = 0, have = 0;       // the unread bytes are buf[at, have)
    bool first = true;
    while (rest_.remaining > 0 && window_.size() < kWindow && window_.bytes() < kWindowBytes) {
        const void* nl = have > at ? std::memchr(buf.data() + at, '\n', have - at) : nullptr;
        if (!nl) {
            std::memmove(buf.data(), buf.data() + at, have - at);
            base += at;
            have -= at;
            at = 0;
            if (buf.size() - have < kReadChunk) buf.resize(have + kReadChunk);  // a line longer than the buffer
            const uint64_t left = rest_.end > base + have ? rest_.end - (base + have) : 0;
            const size_t want = static_cast<size_t>(std::min<uint64_t>(first ? readHint_ : kReadChunk, left));
            first = false;
            const size_t got = want ? source_->bytes->read(base + have, buf.data() + have, want, rest_.line) : 0;
            if (got == 0)
                fail(rest_.line, "the file ends before the warp's last " + std::to_string(rest_.remaining) +
                                     " instructions (was it changed during the run?)");
            have += got;
            continue;
        }
        const size_t nlAt = static_cast<size_t>(static_cast<const char*>(nl) - buf.data());
        std::string_view raw(buf.data() + at, nlAt - at);
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        at = nlAt + 1;
        const uint64_t lineNo = rest_.line++;
        const std::string_view line = trace_text::trim(raw);
        if (TraceFileReader::skippedAmongInstructions(line)) continue;
        try {
            parseInstructionLine(line, source_->format, parsed, source_->decoding);
        } catch (const InputError& e) {
            fail(lineNo, e.what());
        }
        WarpInstruction& in = parsed.inst;
        --rest_.remaining;
        if (in.op == OpClass::Exit && rest_.remaining > 0) in.op = OpClass::Alu;  // lanes leaving early
        lastPc_ = in.pc;
        lastIsExit_ = in.op == OpClass::Exit;
        window_.append(in);
    }
    readHint_ = std::min<size_t>(kReadChunk, static_cast<size_t>(base + at - rest_.offset) + kReadMargin);
    rest_.offset = base + at;
    if (rest_.remaining == 0) {
        if (!lastIsExit_) window_.append(inst::exit(lastPc_ + kSassInstructionBytes, rest_.exitMask));
        source_->bytes->release(restBegin_, rest_.end);
    }
}

} // namespace gpusim
