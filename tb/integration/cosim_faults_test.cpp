// A user's target that misbehaves (docs/cosimulation.md, "When your target misbehaves"), one
// test per case of issue 23's table: a FaultInjector in front of a correct target on the
// L2-to-memory link (the user's memory, GpuOptions::externalMemory) or the NoC-to-L2 link (a
// user's L2, through the link hook). fermi15, gto; atax:n=256 or vectoradd unless said.
// Expected: a legal but slow target changes timing only; an answer to nothing outstanding is a
// ModelError at once, at the link; an error answer names who waited; a request never answered
// (a write-back too) ends in the watchdog naming it; the user's exception comes back as a
// ModelError with its message. Every error reaches Gpu::run's caller as our own type.
#include <algorithm>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/common/FaultInjector.hpp"
#include "tb/common/FixedLatencyTarget.hpp"
#include "workloads/Workload.hpp"

namespace gpusim::tb {
namespace cosim_faults_test {

using namespace sc_core;
using Mode = Fault::Mode;

// The user's memory answers 150 ns after a request (as the co-simulation tests' memory).
const sc_time kMemoryLatency(150, SC_NS);
// Small, so that the hang tests end quickly; far above any legitimate stall of these runs.
const char* kWatchdog = "sim.watchdog_cycles=20000";

// Whether `link` is named by `pattern`: exactly, or with one '*' standing for any text
// ("l2.*->mem": every partition's memory link).
bool linkMatches(const std::string& pattern, const std::string& link) {
    const size_t star = pattern.find('*');
    if (star == std::string::npos) return pattern == link;
    const std::string pre = pattern.substr(0, star), post = pattern.substr(star + 1);
    return link.size() >= pre.size() + post.size() && link.compare(0, pre.size(), pre) == 0 &&
           link.compare(link.size() - post.size(), post.size(), post) == 0;
}

// A GPU whose links named by `faulty` (linkMatches) get a FaultInjector each with `fault`; with
// externalMemory, a FixedLatencyTarget behind each partition.
struct FaultBench {
    Config cfg{gpuSchema()};
    PolicyChoice policy = PolicyRegistry::builtin().parse("gto");
    StatRegistry stats;
    std::unique_ptr<Workload> wl;
    std::vector<FaultInjector*> injectors;
    std::unique_ptr<Gpu> gpu;
    std::vector<std::unique_ptr<FixedLatencyTarget>> mems;
    sc_time errorTime = SC_ZERO_TIME;  // when run() threw

    FaultBench(const std::string& faulty, const Fault& fault, const std::string& workload, bool externalMemory = true,
               const std::vector<std::string>& sets = {}, bool hosted = false) {
        cfg.loadFile(resolvePlatform("fermi15"));
        for (const auto& s : sets) cfg.setFromString(s);
        cfg.validate();
        wl = WorkloadRegistry::builtin().create(workload, /*seed=*/1);
        LinkHook hook = [this, faulty, fault](const std::string& link) -> std::unique_ptr<LinkInterposer> {
            if (!linkMatches(faulty, link)) return nullptr;
            auto ip = std::make_unique<FaultInjector>(interposerModuleName("fault_", link).c_str(), fault);
            injectors.push_back(ip.get());
            return ip;
        };
        GpuOptions opt;
        opt.externalMemory = externalMemory;
        gpu = hosted ? std::make_unique<Gpu>("gpu", cfg, policy, stats, hook, opt)
                     : std::make_unique<Gpu>("gpu", cfg, policy, *wl, stats, hook, opt);
        if (!externalMemory) return;
        for (unsigned j = 0; j < gpu->partitions(); ++j) {
            mems.push_back(std::make_unique<FixedLatencyTarget>(("user_mem" + std::to_string(j)).c_str(), kMemoryLatency));
            gpu->memorySocket(j).bind(mems.back()->socket);
        }
    }

    // The ModelError's message of a run that must fail.
    std::string runError() {
        try {
            gpu->run({});
        } catch (const ModelError& e) {
            errorTime = sc_time_stamp();
            return e.what();
        }
        ADD_FAILURE() << "the run did not fail";
        return "";
    }
    const FaultInjector& injector() const { return *injectors.at(0); }
    uint64_t sum(const std::string& prefix, const std::string& suffix) const {
        return static_cast<uint64_t>(stats.sum(prefix, suffix));
    }
};

Fault fault(Mode mode, std::optional<AccessKind> kind = {}, unsigned nth = 1, sc_time delay = SC_ZERO_TIME) {
    Fault f;
    f.mode = mode;
    f.kind = kind;
    f.nth = nth;
    f.delay = delay;
    return f;
}

// The message of a run the watchdog ended (sim.watchdog_cycles = 20000).
std::string watchdogMessage(FaultBench& b) {
    const std::string msg = b.runError();
    EXPECT_EQ(msg.rfind("watchdog: no progress for 20000 core cycles", 0), 0u) << msg;
    return msg;
}

std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}

// Row 1: a correct memory and a run that writes back dirty L2 lines (vectoradd's output, n large
// enough to evict): the run drains until the memory has answered every write-back.
TEST(CosimFaults, CorrectMemoryRunDrainsEveryWriteBack) {
    FaultBench b("", {}, "vectoradd:n=262144");
    const RunResult r = b.gpu->run({});
    EXPECT_FALSE(r.truncated);
    uint64_t reads = 0, writes = 0;
    for (const auto& m : b.mems) {
        reads += m->reads;
        writes += m->writes;
        EXPECT_TRUE(m->idle());
    }
    const uint64_t writebacks = b.sum("l2.slice", ".writebacks");
    EXPECT_GT(writebacks, 1000u);  // 3 x 1 MB streamed through a 768 KB L2
    EXPECT_EQ(writes, writebacks);
    // Line reads sent: misses that did not merge into a read in flight.
    EXPECT_EQ(reads, b.sum("l2.slice", ".read_misses") - (b.sum("l2.slice", ".mshr_merges") -
                                                          b.sum("l2.slice", ".write_merges")));
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
}

// Row 2: the memory answers one read twice. Whatever the delay, the second answer is refused at
// once by the L2's memory link: the error names the link, the address and the request, and the
// run ends at the instant of the duplicate. (Before: a fault in L2Mshr one or more L2 cycles
// later, or, with immediate payload reuse, a fill taken for another read.)
class DuplicateMemoryAnswer : public testing::TestWithParam<int> {};

TEST_P(DuplicateMemoryAnswer, IsAModelErrorAtTheLinkAtOnce) {
    const Fault f = fault(Mode::Duplicate, AccessKind::Read, 3, sc_time(GetParam(), SC_NS));
    FaultBench b("l2.0->mem", f, "atax:n=256");
    const std::string msg = b.runError();
    EXPECT_NE(msg.find("l2.0->mem: answer to a request that is not outstanding on this link"), std::string::npos) << msg;
    EXPECT_NE(msg.find(b.injector().hit().substr(0, b.injector().hit().find(' ', 5))), std::string::npos) << msg;
    EXPECT_NE(msg.find(hex(b.injector().hitAddress())), std::string::npos) << msg;
    EXPECT_EQ(b.errorTime, b.injector().hitTime()) << "caught when the duplicate arrived";
}

// From the next delta cycle to 2 us (2,800 core cycles) after the first answer.
INSTANTIATE_TEST_SUITE_P(Delays, DuplicateMemoryAnswer, testing::Values(0, 1, 3, 50, 400, 2000));

// The same on the NoC-to-L2 link: a user's L2 (here: ours behind the injector) answering twice.
TEST(CosimFaults, DuplicateL2AnswerIsAModelErrorAtTheLinkAtOnce) {
    const Fault f = fault(Mode::Duplicate, AccessKind::Read, 5, sc_time(10, SC_NS));
    FaultBench b("noc->l2.0", f, "atax:n=256", /*externalMemory=*/false);
    const std::string msg = b.runError();
    EXPECT_NE(msg.find("noc->l2.0: answer to a request that is not outstanding on this link"), std::string::npos) << msg;
    EXPECT_NE(msg.find(hex(b.injector().hitAddress())), std::string::npos) << msg;
    EXPECT_EQ(b.errorTime, b.injector().hitTime());
}

// Row 3: an error answer names the slice, the address, the status and the warps whose loads
// waited on that line.
TEST(CosimFaults, ErrorAnswerFromMemoryNamesTheWaitingWarps) {
    const Fault f = fault(Mode::ErrorResponse, AccessKind::Read, 2);
    FaultBench b("l2.0->mem", f, "atax:n=256");
    const std::string msg = b.runError();
    EXPECT_NE(msg.find("l2_0: memory (l2.0->mem) answered read " + hex(b.injector().hitAddress())), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("with TLM_ADDRESS_ERROR_RESPONSE; waiting for the line:"), std::string::npos) << msg;
    EXPECT_TRUE(std::regex_search(msg, std::regex(R"(: sm[0-9]+ warp [0-9]+ \(read 0x[0-9a-f]+, request [0-9]+)")))
        << msg;
}

// The same on the NoC-to-L2 link: the SM that gets the error answer names the load's warp.
TEST(CosimFaults, ErrorAnswerFromL2NamesTheSmAndWarp) {
    const Fault f = fault(Mode::ErrorResponse, AccessKind::Read);
    FaultBench b("noc->l2.0", f, "atax:n=256", /*externalMemory=*/false);
    const std::string msg = b.runError();
    EXPECT_TRUE(std::regex_search(
        msg, std::regex("^gpu\\.sm([0-9]+): read " + hex(b.injector().hitAddress()) +
                        R"( \(request [0-9]+, sm\1 warp [0-9]+\) answered with TLM_ADDRESS_ERROR_RESPONSE$)")))
        << msg;
}

// Row 4: a read never answered ends in the watchdog, whose dump names it on its link.
TEST(CosimFaults, UnansweredReadEndsInTheWatchdogNamingIt) {
    const Fault f = fault(Mode::Hang, AccessKind::Read, 4);
    FaultBench b("l2.0->mem", f, "atax:n=256", true, {kWatchdog});
    const std::string msg = watchdogMessage(b);
    EXPECT_NE(msg.find("awaiting memory (l2.0->mem) 1: " + b.injector().hit()), std::string::npos) << msg;
}

// Row 4, a write-back: nothing in the SMs waits for it, so the workload finishes; the drain
// waits for the answer, and the watchdog names the write-back (before: a payload count only).
TEST(CosimFaults, UnansweredWriteBackEndsInTheWatchdogNamingIt) {
    const Fault f = fault(Mode::Hang, AccessKind::Writeback, 10);
    FaultBench b("l2.0->mem", f, "vectoradd:n=262144", true, {kWatchdog});
    const std::string msg = watchdogMessage(b);
    EXPECT_NE(msg.find("awaiting memory (l2.0->mem) 1: writeback " + hex(b.injector().hitAddress())), std::string::npos)
        << msg;
    EXPECT_EQ(b.injector().hit().rfind("writeback ", 0), 0u);
}

// The same on the NoC-to-L2 link: an SM's load the L2 side never answers; the NoC's dump names it.
TEST(CosimFaults, UnansweredL2ReadEndsInTheWatchdogNamingIt) {
    const Fault f = fault(Mode::Hang, AccessKind::Read, 4);
    FaultBench b("noc->l2.0", f, "atax:n=256", /*externalMemory=*/false, {kWatchdog});
    const std::string msg = watchdogMessage(b);
    EXPECT_NE(msg.find("noc->l2.0: 1 awaiting an answer: " + b.injector().hit()), std::string::npos) << msg;
}

// Row 5: every memory accepts one request per 500 core cycles (fermi15's core clock 1400 MHz:
// 500 x 714 ps). Legal back-pressure: the run completes, every request is answered, and it takes
// at least 500 cycles per request after the first at the busiest partition.
TEST(CosimFaults, MemoryAcceptingOneRequestPer500CyclesIsSlowAndConsistent) {
    const Fault f = fault(Mode::Throttle, {}, 1, sc_time(500 * 714, SC_PS));
    FaultBench b("l2.*->mem", f, "vectoradd:n=16384");
    ASSERT_EQ(b.injectors.size(), 6u);
    const RunResult r = b.gpu->run({});
    uint64_t busiest = 0, held = 0, reads = 0;
    for (const FaultInjector* ip : b.injectors) {
        busiest = std::max(busiest, ip->requests());
        held += ip->heldRequests();
    }
    for (const auto& m : b.mems) reads += m->reads;
    EXPECT_GT(held, 0u) << "the back-pressure path was taken";
    EXPECT_EQ(reads, 1024u);  // 2 x 16384 x 4 B / 128 B lines, read once each
    EXPECT_GE(r.cycles, 500 * (busiest - 1));
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
}

// The same storm on every NoC-to-L2 link (a user's L2 that accepts one request per 500 cycles):
// every SM request is answered, and the busiest L2 link bounds the run from below.
TEST(CosimFaults, L2AcceptingOneRequestPer500CyclesIsSlowAndConsistent) {
    const Fault f = fault(Mode::Throttle, {}, 1, sc_time(500 * 714, SC_PS));
    FaultBench b("noc->l2.*", f, "vectoradd:n=4096", /*externalMemory=*/false);
    ASSERT_EQ(b.injectors.size(), 6u);
    const RunResult r = b.gpu->run({});
    uint64_t busiest = 0, held = 0, requests = 0;
    for (const FaultInjector* ip : b.injectors) {
        busiest = std::max(busiest, ip->requests());
        held += ip->heldRequests();
        requests += ip->requests();
    }
    EXPECT_GT(held, 0u);
    EXPECT_EQ(requests, b.sum("sm", ".noc.reads") + b.sum("sm", ".noc.writes"));
    EXPECT_GE(r.cycles, 500 * (busiest - 1));
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
}

// Row 6: the user's nb_transport_fw throws: a ModelError carrying its message.
TEST(CosimFaults, ExceptionFromTheTargetIsAModelErrorWithItsMessage) {
    const Fault f = fault(Mode::Throw, {}, 7);
    FaultBench b("l2.0->mem", f, "atax:n=256");
    const std::string msg = b.runError();
    EXPECT_EQ(msg, "user target: injected failure on " + b.injector().hit());
}

// The same for a user's L2 on the NoC-to-L2 link.
TEST(CosimFaults, ExceptionFromTheL2SideIsAModelErrorWithItsMessage) {
    const Fault f = fault(Mode::Throw, {}, 3);
    FaultBench b("noc->l2.0", f, "atax:n=256", /*externalMemory=*/false);
    const std::string msg = b.runError();
    EXPECT_EQ(msg, "user target: injected failure on " + b.injector().hit());
    EXPECT_NE(msg.find(", sm"), std::string::npos) << "an SM's request: " << msg;
}

// Hosted mode: the owner runs sc_start; Gpu::rethrow turns SystemC's wrapper back into ours.
TEST(CosimFaults, HostedOwnerGetsTheErrorAsOurTypeThroughRethrow) {
    const Fault f = fault(Mode::Duplicate, AccessKind::Read, 1, sc_time(5, SC_NS));
    FaultBench b("l2.0->mem", f, "atax:n=256", true, {}, /*hosted=*/true);
    b.gpu->launch(*b.wl, nullptr);
    try {
        try {
            sc_start();
        } catch (const sc_report& r) {
            b.gpu->rethrow(r);
        }
        FAIL() << "the simulation did not fail";
    } catch (const ModelError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("l2.0->mem: answer to a request that is not outstanding", 0), 0u)
            << e.what();
    }
}

} // namespace cosim_faults_test
} // namespace gpusim::tb
