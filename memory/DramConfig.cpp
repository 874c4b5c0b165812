#include "memory/DramConfig.hpp"

#include <stdexcept>
#include <vector>

#include "common/Config.hpp"

namespace gpusim {

namespace {

struct TimingKey {
    const char* name;
    unsigned DramTiming::*field;
    const char* what;
};

// Every overridable value: key, field, meaning (for the reference and for error messages).
const std::vector<TimingKey>& timingKeys() {
    static const std::vector<TimingKey> keys = {
        {"dram.tCL", &DramTiming::tCL, "RD command to its first data beat (CAS latency)"},
        {"dram.tWL", &DramTiming::tWL, "WR command to its first data beat (write latency)"},
        {"dram.tRCD", &DramTiming::tRCD, "ACT to RD/WR in the same bank"},
        {"dram.tRP", &DramTiming::tRP, "PRE to ACT in the same bank"},
        {"dram.tRAS", &DramTiming::tRAS, "ACT to PRE in the same bank"},
        {"dram.tRC", &DramTiming::tRC, "ACT to ACT in the same bank"},
        {"dram.tRRD", &DramTiming::tRRD, "ACT to ACT in different banks"},
        {"dram.tCCD", &DramTiming::tCCD, "column command to column command (any bank)"},
        {"dram.tWR", &DramTiming::tWR, "end of write data to PRE in the same bank (write recovery)"},
        {"dram.tCDLR", &DramTiming::tCDLR, "end of write data to a RD command (write-to-read turnaround)"},
        {"dram.tRTP", &DramTiming::tRTP, "RD to PRE in the same bank"},
        {"dram.tRTW", &DramTiming::tRTW,
         "RD command to WR command (read-to-write turnaround); -1: tCL + burst cycles + 2 - tWL"},
        {"dram.tCCDL", &DramTiming::tCCDL,
         "column command to column command in the same bank group (with dram.bank_groups > 1)"},
        {"dram.tRTPL", &DramTiming::tRTPL, "RD to PRE of a bank in the RD's bank group (with dram.bank_groups > 1)"},
        {"dram.burst_length", &DramTiming::burstLength, "data beats per column command"},
        {"dram.data_rate", &DramTiming::dataRate, "data beats per command-clock cycle (GDDR5 4, GDDR3 2)"},
    };
    return keys;
}

unsigned derivedRtw(const DramTiming& t) {
    const int v = int(t.tCL) + int(t.burstCycles()) + 2 - int(t.tWL);
    return v > 0 ? unsigned(v) : 0u;
}

} // namespace

DramTiming DramTiming::preset(const std::string& name) {
    DramTiming t;
    if (name == "gddr5") {
        t = DramTiming{};  // the member defaults are the GDDR5 preset
    } else if (name == "gddr3") {
        t.tCL = 10, t.tWL = 7, t.tRCD = 12, t.tRP = 10, t.tRAS = 25, t.tRC = 35, t.tRRD = 8,
        t.tCCD = 2, t.tWR = 11, t.tCDLR = 6, t.tRTP = 2;
        t.burstLength = 4, t.dataRate = 2;
    } else {
        throw std::invalid_argument("unknown DRAM preset: " + name);
    }
    t.tRTW = derivedRtw(t);
    return t;
}

DramTiming DramTiming::from(const Config& cfg) {
    DramTiming t = preset(cfg.getString("dram.preset"));
    bool rtwSet = false;
    for (const TimingKey& k : timingKeys()) {
        const int64_t v = cfg.getInt(k.name);
        if (v < 0) continue;
        t.*k.field = static_cast<unsigned>(v);
        if (k.field == &DramTiming::tRTW) rtwSet = true;
    }
    if (!rtwSet) t.tRTW = derivedRtw(t);
    t.busBytes = static_cast<unsigned>(cfg.getInt("dram.bus_bytes"));
    t.bankGroups = static_cast<unsigned>(cfg.getInt("dram.bank_groups"));
    return t;
}

void DramConfig::declare(ParamSchema& s) {
    s.addEnum("memory.model", "frfcfs", {"frfcfs", "ideal"},
              "Memory behind each partition's L2: the FR-FCFS GDDR controller, or the ideal "
              "fixed-latency memory (mem.ideal_latency_cycles)")
        .addDouble("dram.clock_mhz", 924, "MHz", 1, 10000,
                   "DRAM command clock of every memory partition (GDDR5 of the Fermi baselines)")
        .addEnum("dram.preset", "gddr5", {"gddr5", "gddr3"},
                 "Timing preset of the FR-FCFS controller; each dram.t* and burst value below "
                 "overrides it when not -1")
        .addInt("dram.bus_bytes", 8, "bytes", 1, 256,
                "Data bus width of one memory controller (8 = 64 bits, GTX480: 384 bits / 6)")
        .addInt("dram.bank_groups", 1, "", 1, 64,
                "Bank groups per controller (GDDR5: 4); 1: none. With more, dram.tCCDL and "
                "dram.tRTPL apply inside a group; must divide dram.banks")
        .addInt("dram.queue_size", 32, "", 1, 4096,
                "FR-FCFS request queue entries per controller; when full, END_REQ is withheld")
        .addInt("dram.frontend_latency_cycles", 0, "cycles", 0, 100000,
                "DRAM cycles a request waits after its arrival before the scheduler may serve it, "
                "holding its queue entry (GPGPU-Sim's fixed -dram_latency between L2 and DRAM)")
        .addEnum("dram.scheduler", "frfcfs", {"frfcfs", "fcfs"},
                 "Command scheduling: row hits first then oldest (frfcfs), or per-bank arrival "
                 "order (fcfs)")
        .addEnum("dram.prefetch", "none", {"none", "owl"},
                 "Memory-side prefetch of the FR-FCFS controller: owl = OWL's opportunistic prefetch of "
                 "an open row's unread lines into the partition's L2 (--scheduler owl turns it on too)")
        .addInt("dram.prefetch_min_lines", 8, "lines", 0, 4096,
                "OWL prefetch: lines of an open row prefetched before a demand to another row may "
                "close it (C, while the demand queue is long)")
        .addInt("dram.prefetch_min_lines_high", 16, "lines", 0, 4096,
                "OWL prefetch: C while fewer than dram.prefetch_queue_threshold demand requests "
                "are queued")
        .addInt("dram.prefetch_queue_threshold", 8, "", 0, 4096,
                "OWL prefetch: the demand queue is short (C = dram.prefetch_min_lines_high) below "
                "this many requests");
    for (const TimingKey& k : timingKeys())
        s.addInt(k.name, -1, k.field == &DramTiming::burstLength || k.field == &DramTiming::dataRate
                                 ? "" : "cycles",
                 -1, 1000, std::string(k.what) + " (-1: the preset's value)");
    s.addCheck([](const Config& c) {
        const DramTiming t = DramTiming::from(c);
        auto origin = [&](const char* key) { return c.getInt(key) >= 0 ? key : "dram.preset"; };
        if (t.dataRate == 0) c.fail(origin("dram.data_rate"), "data rate must be at least 1");
        if (t.burstLength == 0 || t.burstLength % t.dataRate != 0)
            c.fail(origin("dram.burst_length"), "burst length " + std::to_string(t.burstLength) +
                                                    " is not a positive multiple of the data rate (" +
                                                    std::to_string(t.dataRate) + ")",
                   {"dram.data_rate", "dram.preset"});
        if (t.tCL == 0) c.fail(origin("dram.tCL"), "tCL must be at least 1 cycle");
        if (t.tCCD == 0) c.fail(origin("dram.tCCD"), "tCCD must be at least 1 cycle");
        if (const int64_t banks = c.getInt("dram.banks"); banks % int64_t(t.bankGroups) != 0)
            c.fail("dram.bank_groups", std::to_string(t.bankGroups) + " does not divide dram.banks (" +
                                           std::to_string(banks) + ")",
                   {"dram.banks", "dram.preset"});
        if (c.getInt("dram.prefetch_min_lines_high") < c.getInt("dram.prefetch_min_lines"))
            c.fail("dram.prefetch_min_lines_high",
                   "must be at least dram.prefetch_min_lines (" +
                       std::to_string(c.getInt("dram.prefetch_min_lines")) + ")",
                   {"dram.prefetch_min_lines"});
        if (c.getString("dram.prefetch") != "none" && c.getString("memory.model") != "frfcfs")
            c.fail("dram.prefetch", "needs memory.model = frfcfs (the ideal memory has no rows)", {"memory.model"});
    });
}

} // namespace gpusim
