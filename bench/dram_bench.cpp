// DRAM controller figures (no SMs, no L2): a traffic generator drives one FR-FCFS controller
// with streaming reads (consecutive lines: row hits) and uniformly random reads (every bank, 64
// rows: mostly row conflicts), for each timing preset and scheduler, and prints data-bus
// utilisation, row-buffer hit rate, bank-level parallelism and mean read latency beside the
// bound bank parallelism allows for random reads: min(1, L / tRRD, banks x L / tRC), with L the
// data-bus cycles of one line (bursts per line x burst cycles).
// Figures only: nothing here passes or fails (the bounds are tested in
// tb/unit/memory/dram_controller_test.cpp). One SystemC simulation per process, so every case
// runs in a child process. Usage: dram_bench [lines]   (default 4096 per case)
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/DramTraffic.hpp"

using namespace gpusim;
using namespace gpusim::dramtest;

namespace {

int runCase(const std::string& preset, const std::string& sched, bool random, size_t lines) {
    DramParams m;
    m.set("mem.partitions", 1).set("dram.preset", preset).set("dram.scheduler", sched);
    if (preset == "gddr3") m.set("dram.banks", 4).set("dram.clock_mhz", 800.0);
    const double mhz = m.cfg->getDouble("dram.clock_mhz");
    const uint64_t period = static_cast<uint64_t>(1e6 / mhz + 0.5);
    DramBench b(*m.cfg, period);
    std::vector<uint64_t> addrs;
    if (random) {
        addrs = randomLines(b.map, 0, lines, 64, 128, 1);
    } else {
        for (uint64_t i = 0; i < lines; ++i) addrs.push_back(i * 128);
    }
    for (uint64_t a : addrs) b.gen.read(a);
    sc_core::sc_start();
    const DramTiming& t = b.ctrl.timing();
    const double perLine = double(128 / t.burstBytes()) * t.burstCycles();
    // Random reads are (nearly) all row conflicts: one line per ACT, ACTs at most one per tRRD
    // and, per bank, one per tRC.
    const double banks = double(b.ctrl.banks().size());
    const double bound = std::min({1.0, perLine / t.tRRD, banks * perLine / t.tRC});
    const auto& lat = dynamic_cast<const Histogram&>(*b.stats.find("mem0.latency"));
    std::printf("%-6s %-7s %-10s %6zu %9.1f%% %9.1f%% %8.2f %10.1f %11s\n", preset.c_str(), sched.c_str(),
                random ? "random" : "streaming", lines, 100 * b.average("mem0.bus_utilisation").mean(),
                100 * b.average("mem0.row_hit_rate").mean(), b.average("mem0.bank_parallelism").mean(), lat.mean(),
                random ? (std::to_string(int(100 * bound + 0.5)) + "%").c_str() : "-");
    return b.gen.answered() == addrs.size() ? 0 : 1;
}

} // namespace

int sc_main(int argc, char* argv[]) {
    const size_t lines = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 4096;
    std::printf("%-6s %-7s %-10s %6s %10s %10s %8s %10s %11s\n", "preset", "sched", "traffic", "lines", "bus_util",
                "row_hits", "BLP", "lat_cyc", "rand_bound");
    std::fflush(stdout);
    int status = 0;
    for (const char* preset : {"gddr5", "gddr3"})
        for (const char* sched : {"frfcfs", "fcfs"})
            for (bool random : {false, true}) {
                const pid_t pid = fork();
                if (pid == 0) {
                    const int rc = runCase(preset, sched, random, lines);
                    std::fflush(stdout);
                    _exit(rc);
                }
                int st = 0;
                waitpid(pid, &st, 0);
                if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) status = 1;
            }
    return status;
}
