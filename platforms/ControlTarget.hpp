#pragma once
// The GPU's memory-mapped control registers, as a CPU model in a virtual platform sees them: a
// TLM-2.0 target (loosely timed, b_transport; DMI not offered) through which software selects a
// workload from a table fixed at elaboration, launches it, polls a status register or takes a
// done interrupt, and reads the launch's cycle and instruction counts. docs/cosimulation.md has
// the register map; every register is 32 bits, accessed by aligned 4-byte reads and writes.
// Leaves out: kernel arguments and memory copies (a workload carries its own address streams),
// several launches in flight, and timing beyond a fixed access latency.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace gpusim {

class Workload;

struct LaunchResult {
    bool ok = true;
    uint64_t cycles = 0;        // core cycles from the launch to the end of its memory traffic
    uint64_t instructions = 0;  // warp instructions issued
    std::string error;          // why it failed (watchdog dump, broken invariant) when !ok
};

// What the control target drives: the Gpu in hosted mode, a fake in unit tests.
class KernelLauncher {
public:
    virtual ~KernelLauncher() = default;
    // Starts `w` (kept alive by the caller until `done`); throws InputError if it cannot run
    // here, ModelError if it cannot start now. `done` is called later, inside the simulation.
    virtual void launch(const Workload& w, std::function<void(const LaunchResult&)> done) = 0;
};

class ControlTarget : public sc_core::sc_module {
public:
    // Byte offsets of the registers (RO read-only, RW read-write, WO write-only reading 0,
    // W1C write 1 to clear).
    enum Reg : uint32_t {
        kId = 0x00,            // RO  kIdValue
        kNumWorkloads = 0x04,  // RO  entries in the workload table
        kWorkload = 0x08,      // RW  table index the next launch runs (any value; checked at launch)
        kControl = 0x0C,       // WO  bit 0: launch; other bits reserved (writing them: command error)
        kStatus = 0x10,        // RO  Status of the most recent launch or launch attempt
        kError = 0x14,         // RO  ErrorCode of the last rejected or failed launch; 0 after an accepted launch
        kIrqEnable = 0x18,     // RW  bit 0: drive irq while IRQ_STATUS bit 0 is set
        kIrqStatus = 0x1C,     // W1C bit 0: a launch ended (successfully or not)
        kCyclesLo = 0x20,      // RO  LaunchResult::cycles of the last ended launch, low word
        kCyclesHi = 0x24,      // RO  ... high word
        kInstsLo = 0x28,       // RO  LaunchResult::instructions, low word
        kInstsHi = 0x2C,       // RO  ... high word
        kLaunches = 0x30,      // RO  launches ended so far
    };
    static constexpr uint32_t kSize = 0x34;           // bytes of register space
    static constexpr uint32_t kIdValue = 0x47505553;  // "GPUS"
    enum Status : uint32_t { kIdle = 0, kRunning = 1, kDone = 2, kFailed = 3 };
    enum ErrorCode : uint32_t {
        kNoError = 0,
        kBadWorkload = 1,  // WORKLOAD >= NUM_WORKLOADS at launch
        kBusy = 2,         // launch while running (ignored; the running launch continues)
        kRejected = 3,     // the GPU refused the workload (a kernel does not fit on an SM)
        kRunFailed = 4,    // the run failed (watchdog, broken end-of-run invariant)
    };

    // `latency` is added to every b_transport's delay (the register access time). An access that
    // arrives with a delay is performed at that time: b_transport waits it out first.
    ControlTarget(sc_core::sc_module_name name, KernelLauncher& gpu,
                  std::vector<std::unique_ptr<Workload>> workloads,
                  sc_core::sc_time latency = sc_core::SC_ZERO_TIME);
    ~ControlTarget() override;

    tlm_utils::simple_target_socket<ControlTarget> socket;
    // High while IRQ_ENABLE bit 0 and IRQ_STATUS bit 0 are both set (level-sensitive).
    sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> irq;
    // Notified when a launch ends, whatever the interrupt registers say.
    const sc_core::sc_event& launchEnded() const { return ended_; }

    // The last ended launch, with the error text the registers cannot carry.
    const LaunchResult& lastResult() const { return last_; }
    // Why the last launch was rejected (InputError text), empty if none.
    const std::string& rejectReason() const { return rejectReason_; }
    uint32_t readRegister(uint32_t offset) const;  // no side effects (what transport_dbg reads)

private:
    void bTransport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
    unsigned transportDbg(tlm::tlm_generic_payload& p);
    // TLM_OK_RESPONSE, or the error response the access earns (range, alignment, length, byte
    // enables).
    tlm::tlm_response_status checkAccess(const tlm::tlm_generic_payload& p) const;
    tlm::tlm_response_status write(uint32_t offset, uint32_t value);
    void startLaunch();
    void onDone(const LaunchResult& r);
    void updateIrq();

    KernelLauncher& gpu_;
    std::vector<std::unique_ptr<Workload>> workloads_;
    sc_core::sc_time latency_;
    sc_core::sc_event ended_;
    uint32_t workload_ = 0, status_ = kIdle, error_ = kNoError, irqEnable_ = 0, irqStatus_ = 0;
    uint32_t launches_ = 0;
    LaunchResult last_;
    std::string rejectReason_;
};

} // namespace gpusim
