// ControlTarget (platforms/ControlTarget.hpp) against a fake KernelLauncher: register reset
// values, read/write behaviour, launch and completion, the interrupt line, bus errors for bad
// offsets, lengths, byte enables and read-only registers, launch errors, access latency and debug
// reads. Every expectation follows from the register map in ControlTarget.hpp (derivations in the
// comments). One SystemC simulation per TEST: a bench thread runs the test body.
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/SimError.hpp"
#include "platforms/ControlTarget.hpp"
#include "workloads/Workload.hpp"

namespace gpusim {
namespace control_target_test {

using namespace sc_core;
using Ctl = ControlTarget;

class NamedWorkload : public Workload {
public:
    explicit NamedWorkload(std::string n) : name_(std::move(n)) {}
    const std::string& name() const override { return name_; }
    nlohmann::json params() const override { return nlohmann::json::object(); }
    const std::vector<std::unique_ptr<Kernel>>& kernels() const override { return none_; }

private:
    std::string name_;
    std::vector<std::unique_ptr<Kernel>> none_;
};

struct FakeLauncher : KernelLauncher {
    std::vector<const Workload*> launched;
    sc_time lastLaunchAt;  // simulated time of the last launch() call
    std::function<void(const LaunchResult&)> done;
    bool rejectNext = false;
    void launch(const Workload& w, std::function<void(const LaunchResult&)> d) override {
        if (rejectNext) {
            rejectNext = false;
            throw InputError("workload w2: kernel k: one CTA does not fit on an SM of this platform");
        }
        launched.push_back(&w);
        lastLaunchAt = sc_time_stamp();
        done = std::move(d);
    }
    void finish(const LaunchResult& r) {
        auto d = std::move(done);
        done = nullptr;
        d(r);
    }
};

std::vector<std::unique_ptr<Workload>> table3() {
    std::vector<std::unique_ptr<Workload>> t;
    for (const char* n : {"w0", "w1", "w2"}) t.push_back(std::make_unique<NamedWorkload>(n));
    return t;
}

struct Bench : sc_module {
    tlm_utils::simple_initiator_socket<Bench> bus{"bus"};
    FakeLauncher gpu;
    std::vector<const Workload*> table;  // the table's workloads, in index order
    std::unique_ptr<ControlTarget> ctl;
    std::function<void(Bench&)> body;
    bool ran = false;

    Bench(sc_module_name n, std::function<void(Bench&)> b, sc_time latency = SC_ZERO_TIME)
        : sc_module(n), body(std::move(b)) {
        auto t = table3();
        for (const auto& w : t) table.push_back(w.get());
        ctl = std::make_unique<ControlTarget>("ctl", gpu, std::move(t), latency);
        bus.bind(ctl->socket);
        SC_HAS_PROCESS(Bench);
        SC_THREAD(run);
    }
    void run() {
        body(*this);
        ran = true;
    }

    // One b_transport; returns the response status, `v` in/out, `delay` the annotated time.
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t& v, unsigned len = 4,
                                    unsigned char* byteEnable = nullptr, sc_time* delay = nullptr) {
        unsigned char buf[8] = {};
        std::memcpy(buf, &v, 4);
        tlm::tlm_generic_payload p;
        p.set_command(cmd);
        p.set_address(addr);
        p.set_data_ptr(buf);
        p.set_data_length(len);
        p.set_streaming_width(len);
        if (byteEnable) {
            p.set_byte_enable_ptr(byteEnable);
            p.set_byte_enable_length(4);
        }
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time d = delay ? *delay : SC_ZERO_TIME;
        bus->b_transport(p, d);
        if (delay) *delay = d;
        std::memcpy(&v, buf, 4);
        return p.get_response_status();
    }
    uint32_t rd(uint32_t reg) {
        uint32_t v = 0xFFFFFFFF;
        EXPECT_EQ(access(tlm::TLM_READ_COMMAND, reg, v), tlm::TLM_OK_RESPONSE) << "read 0x" << std::hex << reg;
        return v;
    }
    tlm::tlm_response_status wr(uint32_t reg, uint32_t v) { return access(tlm::TLM_WRITE_COMMAND, reg, v); }
};

void simulate(Bench& b) {
    sc_start();
    ASSERT_TRUE(b.ran) << "the test body did not run to its end";
}

TEST(ControlTarget, ResetValuesAndIdentity) {
    Bench b("b", [](Bench& t) {
        EXPECT_EQ(t.rd(Ctl::kId), 0x47505553u);  // "GPUS": 'G'=0x47 'P'=0x50 'U'=0x55 'S'=0x53
        EXPECT_EQ(t.rd(Ctl::kNumWorkloads), 3u);  // table3() has three entries
        for (uint32_t reg : {Ctl::kWorkload, Ctl::kControl, Ctl::kStatus, Ctl::kError, Ctl::kIrqEnable,
                             Ctl::kIrqStatus, Ctl::kCyclesLo, Ctl::kCyclesHi, Ctl::kInstsLo, Ctl::kInstsHi,
                             Ctl::kLaunches})
            EXPECT_EQ(t.rd(reg), 0u) << "register 0x" << std::hex << reg;
        EXPECT_FALSE(t.ctl->irq.read());
        EXPECT_TRUE(t.gpu.launched.empty());
    });
    simulate(b);
}

TEST(ControlTarget, WritableRegistersReadBack) {
    Bench b("b", [](Bench& t) {
        // WORKLOAD stores any 32-bit value (the range is checked at launch).
        EXPECT_EQ(t.wr(Ctl::kWorkload, 0xDEADBEEF), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(t.rd(Ctl::kWorkload), 0xDEADBEEFu);
        EXPECT_EQ(t.wr(Ctl::kWorkload, 1), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(t.rd(Ctl::kWorkload), 1u);
        // IRQ_ENABLE keeps bit 0 only: 0xFFFFFFFF & 1 = 1, 0xFFFFFFFE & 1 = 0.
        EXPECT_EQ(t.wr(Ctl::kIrqEnable, 0xFFFFFFFF), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(t.rd(Ctl::kIrqEnable), 1u);
        EXPECT_EQ(t.wr(Ctl::kIrqEnable, 0xFFFFFFFE), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(t.rd(Ctl::kIrqEnable), 0u);
        // IRQ_STATUS is write-1-to-clear: writing 1 when it is 0 leaves it 0 (software cannot set it).
        EXPECT_EQ(t.wr(Ctl::kIrqStatus, 1), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(t.rd(Ctl::kIrqStatus), 0u);
        // CONTROL reads as 0; writing 0 launches nothing.
        EXPECT_EQ(t.wr(Ctl::kControl, 0), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(t.rd(Ctl::kControl), 0u);
        EXPECT_TRUE(t.gpu.launched.empty());
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kIdle));
    });
    simulate(b);
}

TEST(ControlTarget, LaunchRunsTheSelectedWorkloadAndReportsItsResult) {
    Bench b("b", [](Bench& t) {
        ASSERT_EQ(t.wr(Ctl::kWorkload, 2), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(t.wr(Ctl::kControl, 1), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(t.gpu.launched.size(), 1u);
        EXPECT_EQ(t.gpu.launched[0], t.table[2]);  // index 2 -> the third workload, w2
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kRunning));
        EXPECT_EQ(t.rd(Ctl::kError), 0u);
        wait(5, SC_NS);
        LaunchResult r;
        r.cycles = (uint64_t(1) << 32) + 5;  // CYCLES_HI = 1, CYCLES_LO = 5
        r.instructions = 42;                 // INSTS_HI = 0, INSTS_LO = 42
        t.gpu.finish(r);
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kDone));
        EXPECT_EQ(t.rd(Ctl::kCyclesLo), 5u);
        EXPECT_EQ(t.rd(Ctl::kCyclesHi), 1u);
        EXPECT_EQ(t.rd(Ctl::kInstsLo), 42u);
        EXPECT_EQ(t.rd(Ctl::kInstsHi), 0u);
        EXPECT_EQ(t.rd(Ctl::kLaunches), 1u);
        EXPECT_EQ(t.rd(Ctl::kIrqStatus), 1u);  // set by every ended launch
        wait(SC_ZERO_TIME);
        EXPECT_FALSE(t.ctl->irq.read());  // IRQ_ENABLE = 0: the line stays low
        // A second launch of index 0 is accepted after the first ended.
        ASSERT_EQ(t.wr(Ctl::kWorkload, 0), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(t.wr(Ctl::kControl, 1), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(t.gpu.launched.size(), 2u);
        EXPECT_EQ(t.gpu.launched[1], t.table[0]);
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kRunning));
        r.cycles = 7;
        r.instructions = (uint64_t(3) << 32) + 9;
        t.gpu.finish(r);
        EXPECT_EQ(t.rd(Ctl::kCyclesLo), 7u);
        EXPECT_EQ(t.rd(Ctl::kCyclesHi), 0u);
        EXPECT_EQ(t.rd(Ctl::kInstsLo), 9u);
        EXPECT_EQ(t.rd(Ctl::kInstsHi), 3u);
        EXPECT_EQ(t.rd(Ctl::kLaunches), 2u);
    });
    simulate(b);
}

TEST(ControlTarget, InterruptIsEnableAndStatusAndClearsOnWriteOne) {
    Bench b("b", [](Bench& t) {
        t.wr(Ctl::kIrqEnable, 1);
        t.wr(Ctl::kControl, 1);
        wait(10, SC_NS);
        const sc_time ended = sc_time_stamp();
        t.gpu.finish({});
        wait(t.ctl->irq.posedge_event());   // the signal rises one delta after the write
        EXPECT_EQ(sc_time_stamp(), ended);  // in the same simulated instant
        EXPECT_TRUE(t.ctl->irq.read());
        t.wr(Ctl::kIrqStatus, 1);  // acknowledge: 1 & 1 & 0 -> low
        wait(SC_ZERO_TIME);
        EXPECT_FALSE(t.ctl->irq.read());
        EXPECT_EQ(t.rd(Ctl::kIrqStatus), 0u);
        // Level-sensitive: a launch that ended while disabled raises the line when enabled.
        t.wr(Ctl::kIrqEnable, 0);
        t.wr(Ctl::kControl, 1);
        t.gpu.finish({});
        wait(SC_ZERO_TIME);
        EXPECT_FALSE(t.ctl->irq.read());
        EXPECT_EQ(t.rd(Ctl::kIrqStatus), 1u);
        t.wr(Ctl::kIrqEnable, 1);
        wait(SC_ZERO_TIME);
        EXPECT_TRUE(t.ctl->irq.read());
        t.wr(Ctl::kIrqEnable, 0);  // disabling lowers it with the status still pending
        wait(SC_ZERO_TIME);
        EXPECT_FALSE(t.ctl->irq.read());
        EXPECT_EQ(t.rd(Ctl::kIrqStatus), 1u);
    });
    simulate(b);
}

TEST(ControlTarget, BadOffsetsLengthsAndByteEnablesAreBusErrors) {
    Bench b("b", [](Bench& t) {
        uint32_t v = 0;
        // kSize = 0x34: 0x30 (LAUNCHES) is the last register; 0x34 and beyond are outside.
        EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 0x34, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 0x1000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 0x34, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        // Not 4-byte aligned (inside the map).
        EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 0x02, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 0x09, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        // Registers are 4 bytes: 8- and 2-byte accesses are refused.
        EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 0x00, v, 8), tlm::TLM_BURST_ERROR_RESPONSE);
        EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 0x00, v, 2), tlm::TLM_BURST_ERROR_RESPONSE);
        unsigned char be[4] = {0xFF, 0xFF, 0, 0};
        EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, Ctl::kWorkload, v, 4, be), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        // A refused write changes nothing: WORKLOAD is still its reset value 0.
        EXPECT_EQ(t.rd(Ctl::kWorkload), 0u);
        // Read-only registers refuse writes and keep their values.
        for (uint32_t reg : {Ctl::kId, Ctl::kNumWorkloads, Ctl::kStatus, Ctl::kError, Ctl::kCyclesLo, Ctl::kCyclesHi,
                             Ctl::kInstsLo, Ctl::kInstsHi, Ctl::kLaunches})
            EXPECT_EQ(t.wr(reg, 7), tlm::TLM_COMMAND_ERROR_RESPONSE) << "register 0x" << std::hex << reg;
        EXPECT_EQ(t.rd(Ctl::kId), Ctl::kIdValue);
        EXPECT_EQ(t.rd(Ctl::kNumWorkloads), 3u);
        // CONTROL's reserved bits: 0x2 and 0x3 are refused and launch nothing.
        EXPECT_EQ(t.wr(Ctl::kControl, 2), tlm::TLM_COMMAND_ERROR_RESPONSE);
        EXPECT_EQ(t.wr(Ctl::kControl, 3), tlm::TLM_COMMAND_ERROR_RESPONSE);
        EXPECT_TRUE(t.gpu.launched.empty());
        // TLM_IGNORE_COMMAND is answered OK and does nothing.
        v = 1;
        EXPECT_EQ(t.access(tlm::TLM_IGNORE_COMMAND, Ctl::kControl, v), tlm::TLM_OK_RESPONSE);
        EXPECT_TRUE(t.gpu.launched.empty());
    });
    simulate(b);
}

TEST(ControlTarget, LaunchErrorsSetStatusAndErrorCode) {
    Bench b("b", [](Bench& t) {
        // Index 3 with 3 entries (valid: 0..2): rejected, nothing launched.
        t.wr(Ctl::kWorkload, 3);
        t.wr(Ctl::kControl, 1);
        EXPECT_TRUE(t.gpu.launched.empty());
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kFailed));
        EXPECT_EQ(t.rd(Ctl::kError), uint32_t(Ctl::kBadWorkload));
        // An accepted launch clears ERROR.
        t.wr(Ctl::kWorkload, 1);
        t.wr(Ctl::kControl, 1);
        EXPECT_EQ(t.gpu.launched.size(), 1u);
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kRunning));
        EXPECT_EQ(t.rd(Ctl::kError), uint32_t(Ctl::kNoError));
        // A launch while running is ignored: the running one continues, ERROR says busy.
        t.wr(Ctl::kControl, 1);
        EXPECT_EQ(t.gpu.launched.size(), 1u);
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kRunning));
        EXPECT_EQ(t.rd(Ctl::kError), uint32_t(Ctl::kBusy));
        t.gpu.finish({});
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kDone));
        EXPECT_EQ(t.rd(Ctl::kError), uint32_t(Ctl::kBusy));  // only an accepted launch clears it
        // The GPU refuses the workload (InputError): failed, rejected, reason kept.
        t.gpu.rejectNext = true;
        t.wr(Ctl::kControl, 1);
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kFailed));
        EXPECT_EQ(t.rd(Ctl::kError), uint32_t(Ctl::kRejected));
        EXPECT_NE(t.ctl->rejectReason().find("does not fit"), std::string::npos);
        EXPECT_EQ(t.rd(Ctl::kLaunches), 1u);  // a rejected launch never ended
        // A run that fails (watchdog): failed, run-failed, interrupt status set, counted.
        t.wr(Ctl::kIrqStatus, 1);
        t.wr(Ctl::kControl, 1);
        EXPECT_EQ(t.rd(Ctl::kError), uint32_t(Ctl::kNoError));
        LaunchResult bad;
        bad.ok = false;
        bad.cycles = 100;
        bad.error = "watchdog: no progress";
        t.gpu.finish(bad);
        EXPECT_EQ(t.rd(Ctl::kStatus), uint32_t(Ctl::kFailed));
        EXPECT_EQ(t.rd(Ctl::kError), uint32_t(Ctl::kRunFailed));
        EXPECT_EQ(t.rd(Ctl::kIrqStatus), 1u);
        EXPECT_EQ(t.rd(Ctl::kLaunches), 2u);
        EXPECT_EQ(t.rd(Ctl::kCyclesLo), 100u);
        EXPECT_EQ(t.ctl->lastResult().error, "watchdog: no progress");
    });
    simulate(b);
}

// A temporally decoupled CPU writes CONTROL at local time 0 + 100 ns: the launch starts at 100 ns,
// not at the call's 0 (launching early by the CPU's offset).
TEST(ControlTarget, DelayedLaunchStartsAtTheAnnotatedTime) {
    sc_time launchedAt;
    bool launched = false;
    Bench b(
        "b",
        [&](Bench& t) {
            uint32_t v = 1;
            sc_time d(100, SC_NS);
            EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, Ctl::kControl, v, 4, nullptr, &d), tlm::TLM_OK_RESPONSE);
            launched = !t.gpu.launched.empty();
            launchedAt = t.gpu.lastLaunchAt;
            EXPECT_EQ(d, sc_time(10, SC_NS));  // the register latency only
        },
        sc_time(10, SC_NS));
    sc_start();
    ASSERT_TRUE(b.ran);
    EXPECT_TRUE(launched);
    EXPECT_EQ(launchedAt, sc_time(100, SC_NS));  // 0 + 100 ns
}

TEST(ControlTarget, AccessLatencyIsAnnotatedAndDebugReadsHaveNoSideEffects) {
    Bench b(
        "b",
        [](Bench& t) {
            uint32_t v = 0;
            sc_time d = SC_ZERO_TIME;
            t.access(tlm::TLM_READ_COMMAND, Ctl::kId, v, 4, nullptr, &d);
            EXPECT_EQ(d, sc_time(10, SC_NS));  // 0 + 10 ns
            // An access arriving with 5 ns is performed 5 ns later (the target waits it out) and
            // annotates its own 10 ns.
            d = sc_time(5, SC_NS);
            t.access(tlm::TLM_WRITE_COMMAND, Ctl::kWorkload, v = 2, 4, nullptr, &d);
            EXPECT_EQ(d, sc_time(10, SC_NS));
            EXPECT_EQ(sc_time_stamp(), sc_time(5, SC_NS));  // 0 + 5 ns
            d = sc_time(5, SC_NS);
            t.access(tlm::TLM_READ_COMMAND, 0x40, v, 4, nullptr, &d);  // errors take the same time
            EXPECT_EQ(d, sc_time(10, SC_NS));
            EXPECT_EQ(sc_time_stamp(), sc_time(10, SC_NS));  // 5 + 5 ns
            // transport_dbg: reads 4 bytes of WORKLOAD (2); a debug write to CONTROL does nothing.
            uint32_t buf = 0;
            tlm::tlm_generic_payload p;
            p.set_command(tlm::TLM_READ_COMMAND);
            p.set_address(Ctl::kWorkload);
            p.set_data_ptr(reinterpret_cast<unsigned char*>(&buf));
            p.set_data_length(4);
            p.set_streaming_width(4);
            EXPECT_EQ(t.bus->transport_dbg(p), 4u);
            EXPECT_EQ(buf, 2u);
            buf = 1;
            p.set_command(tlm::TLM_WRITE_COMMAND);
            p.set_address(Ctl::kControl);
            EXPECT_EQ(t.bus->transport_dbg(p), 0u);
            EXPECT_TRUE(t.gpu.launched.empty());
        },
        sc_time(10, SC_NS));
    simulate(b);
}

} // namespace control_target_test
} // namespace gpusim
