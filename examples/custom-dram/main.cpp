// fermi15 with the user's own memory behind every L2 partition: the Gpu is built with
// GpuOptions::externalMemory, so it leaves each partition's L2-to-DRAM initiator socket unbound,
// and this program binds a FixedLatencyMemory (an AT target written here) to each of them. The
// memories receive partition-local addresses (GpuOptions::memoryAddresses) and decode them with
// the GPU's own address map (Gpu::addressMap()).
//   custom_dram [WORKLOAD] [LATENCY_NS] [INTERVAL_NS]     (defaults: vectoradd:n=16384 200 2)
// Exit status: 0 when the run completed and every L2 miss and write-back reached the user's
// memories and was answered, 1 otherwise, 2 bad input, 3 model error. A workload large enough
// to evict dirty L2 lines (vectoradd:n=262144) exercises the write-backs.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "FixedLatencyMemory.hpp"
#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "workloads/Workload.hpp"

using namespace gpusim;

int sc_main(int argc, char* argv[]) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // "stopped by user"
    const std::string spec = argc > 1 ? argv[1] : "vectoradd:n=16384";
    const double latencyNs = argc > 2 ? std::atof(argv[2]) : 200;
    const double intervalNs = argc > 3 ? std::atof(argv[3]) : 2;
    try {
        Config cfg(gpuSchema());
        const std::string platformFile = resolvePlatform("fermi15");  // the installed share/gpusim/platforms
        cfg.loadFile(platformFile);
        cfg.validate();
        PolicyChoice policy = PolicyRegistry::builtin().parse("gto");
        std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create(spec, /*seed=*/1);
        StatRegistry stats;

        GpuOptions opt;
        opt.externalMemory = true;
        opt.memoryAddresses = MemoryAddresses::PartitionLocal;
        Gpu gpu("gpu", cfg, policy, *wl, stats, /*hook=*/{}, opt);
        std::vector<std::unique_ptr<FixedLatencyMemory>> mems;
        for (unsigned j = 0; j < gpu.partitions(); ++j) {
            const std::string name = "extmem" + std::to_string(j);
            mems.push_back(std::make_unique<FixedLatencyMemory>(
                name.c_str(), sc_core::sc_time(latencyNs, sc_core::SC_NS),
                sc_core::sc_time(intervalNs, sc_core::SC_NS), gpu.addressMap(), stats, name));
            gpu.memorySocket(j).bind(mems.back()->socket);
        }

        const RunResult r = gpu.run({});
        for (const auto& m : mems)
            if (!m->idle()) throw ModelError("a user memory still holds requests after the run");

        const double reads = stats.sum("extmem", ".reads"), writes = stats.sum("extmem", ".writes");
        const double l2Misses = stats.sum("l2.slice", ".read_misses"), l2Writebacks = stats.sum("l2.slice", ".writebacks");
        double latSum = 0, latN = 0;
        for (const auto& [name, st] : stats.all())
            if (name.rfind("extmem", 0) == 0 && name.size() > 11 && name.substr(name.size() - 11) == ".latency_ns") {
                const auto& a = static_cast<const Average&>(*st);
                latSum += a.mean() * double(a.count());
                latN += double(a.count());
            }
        std::printf("custom-dram: fermi15 (%s) / gto / %s with %u user memories (%.0f ns latency, one request per %.0f ns)\n",
                    platformFile.c_str(), wl->name().c_str(), gpu.partitions(), latencyNs, intervalNs);
        std::printf("  cycles                 %llu\n", static_cast<unsigned long long>(r.cycles));
        std::printf("  warp instructions      %llu\n", static_cast<unsigned long long>(r.instructions));
        std::printf("  IPC                    %.4f\n", r.cycles ? double(r.instructions) / double(r.cycles) : 0.0);
        std::printf("  L2 read misses         %.0f, write-backs %.0f\n", l2Misses, l2Writebacks);
        std::printf("  user memory requests   %.0f reads, %.0f writes, %.1f ns mean latency\n", reads, writes,
                    latN ? latSum / latN : 0.0);
        std::printf("  user memory rows       %.0f row hits, %.0f row misses (partition-local addresses)\n",
                    stats.sum("extmem", ".row_hits"), stats.sum("extmem", ".row_misses"));
        // Every request the L2 slices sent to memory was answered by a user memory. Read misses
        // that merge into an in-flight entry send nothing, so reads <= misses; the run must have
        // reached memory at all. Every write-back was answered before the run ended.
        if (reads == 0 || reads > l2Misses) {
            std::fprintf(stderr, "custom-dram: the user memories saw %.0f reads for %.0f L2 read misses\n", reads, l2Misses);
            return 1;
        }
        if (writes != l2Writebacks) {
            std::fprintf(stderr, "custom-dram: the user memories answered %.0f writes for %.0f L2 write-backs\n", writes,
                         l2Writebacks);
            return 1;
        }
        return 0;
    } catch (const InputError& e) {
        std::fprintf(stderr, "custom-dram: error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "custom-dram: model error: %s\n", e.what());
        return 3;
    }
}
