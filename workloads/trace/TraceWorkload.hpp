#pragma once
// An Accel-Sim trace directory as a Workload: `--workload trace:DIR`, DIR holding kernelslist.g
// (or the path of a kernelslist file itself). Everything after "trace:" is the path, verbatim,
// so it may contain ',' '=' or ':'.
//
// Loading reads kernelslist.g and every kernel file's header, so a missing file, a bad header
// or an unsupported tracer version fails before the simulation starts; thread-block sections
// are read lazily (TraceKernel.hpp). At the end of a run, report() gives the MemcpyHtoD
// records, unknown opcodes (each ran as ALU; in all and by -binary version), warps that ended
// without EXIT, binary versions without an opcode table of their own (and the family used),
// generic LD/ST by the space the windows gave them, and a "warnings" list the CLI prints on
// stderr.
#include <memory>
#include <string>
#include <vector>

#include "workloads/Workload.hpp"
#include "workloads/trace/KernelsList.hpp"
#include "workloads/trace/TraceKernel.hpp"

namespace gpusim {

class TraceWorkload final : public Workload {
public:
    explicit TraceWorkload(const std::string& path);

    const std::string& name() const override { return name_; }
    nlohmann::json params() const override;
    const std::vector<std::unique_ptr<Kernel>>& kernels() const override { return kernels_; }
    nlohmann::json report() const override;
    void rethrowDeferredInputError() const override;

    const KernelsList& list() const { return list_; }
    const TraceTally& tally() const { return state_->tally; }

private:
    std::string name_ = "trace";
    std::string path_;
    KernelsList list_;
    std::shared_ptr<TraceRunState> state_;
    std::vector<std::unique_ptr<Kernel>> kernels_;
};

// The registry entry: `trace:DIR`.
ArgumentWorkloadInfo traceWorkload();

} // namespace gpusim
