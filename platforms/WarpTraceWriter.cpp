#include "platforms/WarpTraceWriter.hpp"

#include <algorithm>
#include <cinttypes>

#include "common/SimError.hpp"

namespace gpusim {

namespace {
const char* opName(const WarpInstruction& i) {
    // By MemSpace: global, shared, local, constant, texture.
    static const char* const kMem[2][5] = {
        {"load.global", "load.shared", "load.local", "load.constant", "load.texture"},
        {"store.global", "store.shared", "store.local", "store.constant", "store.texture"}};
    switch (i.op) {
    case OpClass::Alu: return "alu";
    case OpClass::Sfu: return "sfu";
    case OpClass::Load: return kMem[0][static_cast<unsigned>(i.space) % 5];
    case OpClass::Store: return kMem[1][static_cast<unsigned>(i.space) % 5];
    case OpClass::Barrier: return "barrier";
    case OpClass::Exit: return "exit";
    case OpClass::Tensor: return "tensor";
    }
    return "?";
}
} // namespace

WarpTraceWriter::WarpTraceWriter(const std::string& path, const std::string& option, unsigned sms,
                                 unsigned warpSlots, uint64_t corePeriodPs, const TraceFilter& filter)
    : out_(path, option), filter_(filter), sms_(sms), warpSlots_(warpSlots), periodPs_(corePeriodPs), slots_(size_t(sms) * warpSlots) {
    std::FILE* f = out_.get();
    std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
    bool first = true;
    for (unsigned s = 0; s < sms_; ++s) {
        if (!filter_.smKept(static_cast<int>(s))) continue;
        std::fprintf(f,
                     "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":\"SM %u\"}},\n"
                     "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"args\":{\"sort_index\":%u}}",
                     first ? "" : ",\n", s, s, s, s);
        first = false;
        for (unsigned w = 0; w < warpSlots_; ++w)
            std::fprintf(f,
                         ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"warp slot %u\"}}",
                         s, w, w);
    }
    if (first) std::fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"GPU\"}}", f);
}

WarpTraceWriter::~WarpTraceWriter() { close(); }

void WarpTraceWriter::close() {
    if (!out_.open()) return;
    for (unsigned s = 0; s < sms_; ++s)
        for (unsigned w = 0; w < warpSlots_; ++w) closeSlot(s, w, lastCycle_ + 1);
    std::fprintf(out_.get(), "\n],\"otherData\":{\"time_unit\":\"1 us = 1 simulated us\",\"core_period_ps\":%" PRIu64
                     ",\"events\":%" PRIu64 "}}\n",
                 periodPs_, events_);
    out_.close();
}

void WarpTraceWriter::begin() {
    std::fputs(",\n", out_.get());
    ++events_;
}

// Microseconds with six decimals: exact, since the time resolution is 1 ps.
void WarpTraceWriter::ts(const char* key, uint64_t cycle) {
    const uint64_t ps = cycle * periodPs_;
    std::fprintf(out_.get(), ",\"%s\":%" PRIu64 ".%06" PRIu64, key, ps / 1000000, ps % 1000000);
}

void WarpTraceWriter::issue(unsigned sm, unsigned warp, uint64_t cycle, const WarpInstruction& inst) {
    lastCycle_ = std::max(lastCycle_, cycle);
    if (!kept(sm, cycle)) return;
    begin();
    std::fprintf(out_.get(), "{\"name\":\"%s\",\"cat\":\"issue\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u", opName(inst), sm, warp);
    ts("ts", cycle);
    ts("dur", 1);
    std::fprintf(out_.get(), ",\"args\":{\"pc\":\"0x%" PRIx64 "\"}}", inst.pc);
}

void WarpTraceWriter::loadDone(unsigned sm, unsigned warp, uint64_t cycle, uint64_t latency, uint64_t pc,
                               unsigned accesses, bool fullyCached) {
    lastCycle_ = std::max(lastCycle_, cycle);
    const uint64_t start = cycle - std::min(latency, cycle);
    if (!kept(sm, start)) return;
    const uint64_t id = nextAsyncId_++;
    begin();
    std::fprintf(out_.get(), "{\"name\":\"load\",\"cat\":\"mem\",\"ph\":\"b\",\"id\":%" PRIu64 ",\"pid\":%u,\"tid\":%u", id,
                 sm, warp);
    ts("ts", start);
    std::fprintf(out_.get(), ",\"args\":{\"pc\":\"0x%" PRIx64 "\",\"lines\":%u,\"l1_hit\":%s}}", pc, accesses,
                 fullyCached ? "true" : "false");
    begin();
    std::fprintf(out_.get(), "{\"name\":\"load\",\"cat\":\"mem\",\"ph\":\"e\",\"id\":%" PRIu64 ",\"pid\":%u,\"tid\":%u", id,
                 sm, warp);
    ts("ts", cut(cycle));
    std::fputs("}", out_.get());
}

void WarpTraceWriter::interval(unsigned sm, unsigned warp, const char* cat, const char* name, uint64_t from,
                               uint64_t to) {
    if (to <= from || !kept(sm, from)) return;
    to = cut(to);
    begin();
    std::fprintf(out_.get(), "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u", name, cat, sm, warp);
    ts("ts", from);
    ts("dur", to - from);
    std::fputs("}", out_.get());
}

void WarpTraceWriter::barrierArrive(unsigned sm, unsigned warp, uint64_t cycle) {
    lastCycle_ = std::max(lastCycle_, cycle);
    slot(sm, warp).barrierSince = cycle + 1;  // the issue event covers the arrival cycle
}

void WarpTraceWriter::barrierRelease(unsigned sm, unsigned warp, uint64_t cycle) {
    Slot& s = slot(sm, warp);
    if (s.barrierSince == kNone) return;
    interval(sm, warp, "stall", "barrier", s.barrierSince, cycle);
    s.barrierSince = kNone;
}

void WarpTraceWriter::scoreboard(unsigned sm, unsigned warp, uint64_t cycle, bool hazard) {
    lastCycle_ = std::max(lastCycle_, cycle);
    Slot& s = slot(sm, warp);
    if (hazard) {
        if (s.scoreboardSince == kNone) s.scoreboardSince = cycle;
    } else if (s.scoreboardSince != kNone) {
        interval(sm, warp, "stall", "scoreboard", s.scoreboardSince, cycle);
        s.scoreboardSince = kNone;
    }
}

void WarpTraceWriter::closeSlot(unsigned sm, unsigned warp, uint64_t cycle) {
    Slot& s = slot(sm, warp);
    if (s.scoreboardSince != kNone) interval(sm, warp, "stall", "scoreboard", s.scoreboardSince, cycle);
    if (s.barrierSince != kNone) interval(sm, warp, "stall", "barrier", s.barrierSince, cycle);
    s = Slot{};
}

void WarpTraceWriter::warpEnd(unsigned sm, unsigned warp, uint64_t cycle) {
    lastCycle_ = std::max(lastCycle_, cycle);
    closeSlot(sm, warp, cycle);
}

} // namespace gpusim
