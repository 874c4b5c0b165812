// A tiny virtual platform: a "CPU" (one SC_THREAD issuing loosely timed b_transport reads and
// writes) drives the GPU through its memory-mapped control registers (gpusim::ControlTarget, map
// in docs/cosimulation.md) the way a driver would: select a workload, launch it, sleep until the
// done interrupt, read the status and the cycle count, acknowledge; the last launch is polled
// instead. The GPU is built without a workload (hosted mode) and never stops the simulation; the
// CPU does when its program ends.
//   host_launch [WORKLOAD...]      (default: vectoradd:n=8192 bicg:n=128 vectoradd:n=8192)
// Exit status: 0 when every launch finished with STATUS = done, 1 otherwise, 2 bad input.
#include <cstdio>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "platforms/ControlTarget.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "workloads/Workload.hpp"

using namespace gpusim;
using namespace sc_core;
using Ctl = ControlTarget;

class Cpu : public sc_module {
public:
    tlm_utils::simple_initiator_socket<Cpu> bus;
    sc_in<bool> irq;
    bool ok = true;
    bool finished = false;  // the program ran to its end (not starved waiting for an interrupt)

    explicit Cpu(sc_module_name name, std::vector<std::string> names) : sc_module(name), bus("bus"), names_(std::move(names)) {
        SC_HAS_PROCESS(Cpu);
        SC_THREAD(program);
    }

private:
    uint32_t read(uint32_t reg) {
        uint32_t v = 0;
        access(tlm::TLM_READ_COMMAND, reg, v);
        return v;
    }
    void write(uint32_t reg, uint32_t v) { access(tlm::TLM_WRITE_COMMAND, reg, v); }
    void access(tlm::tlm_command cmd, uint32_t reg, uint32_t& v) {
        tlm::tlm_generic_payload p;
        p.set_command(cmd);
        p.set_address(reg);
        p.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        p.set_data_length(4);
        p.set_streaming_width(4);
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = SC_ZERO_TIME;
        bus->b_transport(p, delay);
        wait(delay);  // no temporal decoupling: the CPU waits out each access
        if (p.is_response_error()) {
            std::fprintf(stderr, "cpu: bus error %s at register 0x%02x\n", p.get_response_string().c_str(), reg);
            ok = false;
        }
    }

    void program() {
        if (read(Ctl::kId) != Ctl::kIdValue) {
            std::fprintf(stderr, "cpu: no GPU at the control address\n");
            ok = false;
            sc_stop();
            return;
        }
        const uint32_t n = read(Ctl::kNumWorkloads);
        write(Ctl::kIrqEnable, 1);
        for (uint32_t i = 0; i < n; ++i) {
            const bool polled = i + 1 == n;  // the last launch shows polling instead of the interrupt
            if (polled) write(Ctl::kIrqEnable, 0);
            write(Ctl::kWorkload, i);
            const sc_time start = sc_time_stamp();
            write(Ctl::kControl, 1);
            if (const uint32_t e = read(Ctl::kError)) {  // rejected: no interrupt will come
                std::fprintf(stderr, "cpu: launch %u rejected, ERROR = %u\n", i, e);
                ok = false;
                break;
            }
            if (polled) {
                while (read(Ctl::kStatus) == Ctl::kRunning) wait(1, SC_US);
            } else {
                while (!irq.read()) wait(irq.posedge_event());
            }
            const uint32_t status = read(Ctl::kStatus);
            const uint64_t cycles = uint64_t(read(Ctl::kCyclesHi)) << 32 | read(Ctl::kCyclesLo);
            const uint64_t insts = uint64_t(read(Ctl::kInstsHi)) << 32 | read(Ctl::kInstsLo);
            write(Ctl::kIrqStatus, 1);  // acknowledge
            std::printf("  launch %u  %-18s %-7s %8llu cycles %9llu warp instructions  IPC %6.3f  (%s, %.1f us)\n", i,
                        names_[i].c_str(), status == Ctl::kDone ? "done" : "FAILED",
                        static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(insts),
                        cycles ? double(insts) / double(cycles) : 0.0, polled ? "polled" : "interrupt",
                        (sc_time_stamp() - start).to_seconds() * 1e6);
            if (status != Ctl::kDone || cycles == 0) ok = false;
            wait(2, SC_US);  // the host does something else between launches
        }
        std::printf("  launches ended         %u\n", read(Ctl::kLaunches));
        finished = true;
        sc_stop();
    }

    std::vector<std::string> names_;
};

int sc_main(int argc, char* argv[]) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // "stopped by user"
    std::vector<std::string> specs(argv + 1, argv + argc);
    if (specs.empty()) specs = {"vectoradd:n=8192", "bicg:n=128", "vectoradd:n=8192"};
    try {
        Config cfg(gpuSchema());
        cfg.loadFile(resolvePlatform("fermi15"));
        cfg.validate();
        PolicyChoice policy = PolicyRegistry::builtin().parse("gto");
        std::vector<std::unique_ptr<Workload>> table;
        for (const auto& s : specs) table.push_back(WorkloadRegistry::builtin().create(s, /*seed=*/1));
        StatRegistry stats;

        Gpu gpu("gpu", cfg, policy, stats);  // hosted: no workload until the CPU launches one
        ControlTarget ctl("gpu_ctl", gpu, std::move(table), sc_time(10, SC_NS));
        Cpu cpu("cpu", specs);
        cpu.bus.bind(ctl.socket);
        cpu.irq.bind(ctl.irq);

        std::printf("host-launch: fermi15 / gto, %zu workloads, CPU driving the control registers\n", specs.size());
        sc_start();
        if (!ctl.lastResult().ok) std::fprintf(stderr, "host-launch: %s\n", ctl.lastResult().error.c_str());
        std::printf("  gpu.launches %.0f, gpu.cycles %.0f, simulated time %s\n", stats.get("gpu.launches"),
                    stats.get("gpu.cycles"), sc_time_stamp().to_string().c_str());
        return cpu.ok && cpu.finished ? 0 : 1;
    } catch (const InputError& e) {
        std::fprintf(stderr, "host-launch: error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "host-launch: model error: %s\n", e.what());
        return 3;
    }
}
