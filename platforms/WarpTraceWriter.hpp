#pragma once
// `gpusim run --trace-warps FILE`: a WarpTraceSink that streams a Chrome/Perfetto trace-event
// JSON file ({"traceEvents":[...]}, opened by chrome://tracing and ui.perfetto.dev). One process
// per SM (pid = SM id), one thread per warp slot (tid = slot), named by "M" metadata events.
// Events (one per line; timestamps in microseconds of simulated time, exact to the picosecond):
//   issue    "X" of one core cycle per issued instruction, named by its class (alu, sfu, tensor,
//            load.global, store.shared, barrier, exit, ...), args pc
//   mem      async "b"/"e" pair (id unique in the file) for a load, from issue to write-back,
//            args pc, lines (line accesses after coalescing), l1_hit (every access hit)
//   stall    "X" named "scoreboard" (the next instruction waited on the scoreboard, sampled each
//            issue cycle) or "barrier" (from the cycle after the barrier issued to its release)
// With a TraceFilter (--trace-window, --trace-sms) only the SMs it keeps are named and traced, and
// an event is kept when it starts inside the window (a load: its issue); an interval running past
// the window's end is cut there.
// Events are written as they happen, nothing is kept but one open interval per warp slot; close()
// (or the destructor) ends the open intervals at the last cycle seen and closes the JSON, so the
// file is valid after a run cut short by --max-cycles or stopped by an error.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "modules/WarpTraceSink.hpp"
#include "platforms/TraceFilter.hpp"
#include "platforms/TraceOutputFile.hpp"

namespace gpusim {

class WarpTraceWriter : public WarpTraceSink {
public:
    // Opens `path` (InputError naming `option` and the path if it cannot be).
    WarpTraceWriter(const std::string& path, const std::string& option, unsigned sms, unsigned warpSlots,
                    uint64_t corePeriodPs, const TraceFilter& filter = {});
    ~WarpTraceWriter() override;
    WarpTraceWriter(const WarpTraceWriter&) = delete;
    WarpTraceWriter& operator=(const WarpTraceWriter&) = delete;

    void issue(unsigned sm, unsigned warp, uint64_t cycle, const WarpInstruction& inst) override;
    void loadDone(unsigned sm, unsigned warp, uint64_t cycle, uint64_t latency, uint64_t pc, unsigned accesses,
                  bool fullyCached) override;
    void barrierArrive(unsigned sm, unsigned warp, uint64_t cycle) override;
    void barrierRelease(unsigned sm, unsigned warp, uint64_t cycle) override;
    void scoreboard(unsigned sm, unsigned warp, uint64_t cycle, bool hazard) override;
    void warpEnd(unsigned sm, unsigned warp, uint64_t cycle) override;

    void close();
    uint64_t events() const { return events_; }

private:
    static constexpr uint64_t kNone = ~uint64_t(0);
    struct Slot {
        uint64_t barrierSince = kNone;     // cycle the barrier wait began
        uint64_t scoreboardSince = kNone;  // first cycle of the current scoreboard wait
    };
    Slot& slot(unsigned sm, unsigned warp) { return slots_[size_t(sm) * warpSlots_ + warp]; }
    void begin();  // separator before an event
    void ts(const char* key, uint64_t cycle);
    void interval(unsigned sm, unsigned warp, const char* cat, const char* name, uint64_t from, uint64_t to);
    void closeSlot(unsigned sm, unsigned warp, uint64_t cycle);
    bool kept(unsigned sm, uint64_t startCycle) const {
        return filter_.inWindow(startCycle) && filter_.smKept(static_cast<int>(sm));
    }
    uint64_t cut(uint64_t cycle) const { return std::min(cycle, filter_.toCycle); }

    TraceOutputFile out_;
    TraceFilter filter_;
    unsigned sms_, warpSlots_;
    uint64_t periodPs_;
    std::vector<Slot> slots_;
    uint64_t events_ = 0, nextAsyncId_ = 0, lastCycle_ = 0;
};

} // namespace gpusim
