#include "workloads/ConcurrentWorkload.hpp"

#include <utility>

#include "common/SimError.hpp"

namespace gpusim {

namespace {

// A part's kernel on stream `part`, its addresses and PCs moved out of the other parts' way.
class PartKernel final : public Kernel {
public:
    PartKernel(const Kernel& inner, unsigned part) : inner_(inner), part_(part), info_(inner.info()) {
        info_.stream = part;
    }
    const KernelInfo& info() const override { return info_; }
    std::unique_ptr<WarpStream> warp(uint64_t ctaId, unsigned warpInCta) const override {
        return std::make_unique<Stream>(inner_.warp(ctaId, warpInCta), part_);
    }

private:
    class Stream final : public WarpStream {
    public:
        Stream(std::unique_ptr<WarpStream> inner, unsigned part)
            : inner_(std::move(inner)), addr_(part * kConcurrentAddressStride), pc_(part * kConcurrentPcStride) {}
        bool next(WarpInstruction& out) override {
            if (!inner_->next(out)) return false;
            out.pc += pc_;
            if (out.isMemory() && out.space != MemSpace::Shared)
                for (unsigned l = 0; l < kWarpSize; ++l)
                    if (out.activeMask >> l & 1u) out.addr[l] += addr_;
            return true;
        }

    private:
        std::unique_ptr<WarpStream> inner_;
        uint64_t addr_, pc_;
    };

    const Kernel& inner_;
    unsigned part_;
    KernelInfo info_;
};

} // namespace

ConcurrentWorkload::ConcurrentWorkload(std::vector<std::string> specs, std::vector<std::unique_ptr<Workload>> parts)
    : specs_(std::move(specs)), parts_(std::move(parts)) {
    for (unsigned p = 0; p < parts_.size(); ++p)
        for (const auto& k : parts_[p]->kernels()) kernels_.push_back(std::make_unique<PartKernel>(*k, p));
}

nlohmann::json ConcurrentWorkload::params() const {
    nlohmann::json parts = nlohmann::json::array();
    for (size_t p = 0; p < parts_.size(); ++p)
        parts.push_back({{"spec", specs_[p]}, {"name", parts_[p]->name()}, {"params", parts_[p]->params()}});
    return {{"parts", parts}};
}

nlohmann::json ConcurrentWorkload::report() const {
    nlohmann::json parts = nlohmann::json::array(), warnings = nlohmann::json::array();
    bool any = false;
    for (size_t p = 0; p < parts_.size(); ++p) {
        nlohmann::json r = parts_[p]->report();
        if (!r.is_null()) {
            any = true;
            if (r.contains("warnings"))
                for (const auto& w : r["warnings"]) warnings.push_back("part " + std::to_string(p) + ": " + w.get<std::string>());
        }
        parts.push_back(std::move(r));
    }
    if (!any) return nullptr;
    return {{"parts", parts}, {"warnings", warnings}};
}

void ConcurrentWorkload::rethrowDeferredInputError() const {
    for (const auto& p : parts_) p->rethrowDeferredInputError();
}

ArgumentWorkloadInfo concurrentWorkload() {
    ArgumentWorkloadInfo info;
    info.name = "concurrent";
    info.usage = "concurrent:SPEC+SPEC[+...]";
    info.description =
        "Workloads on streams of their own (part i on stream i, addresses and PCs kept apart): they "
        "overlap with gpu.kernel_concurrency spatial or mixed; e.g. concurrent:kmeans+blackscholes";
    info.make = [](const std::string& arg, uint64_t seed) -> std::unique_ptr<Workload> {
        const std::string usage = " (expected concurrent:SPEC+SPEC[+...], e.g. concurrent:kmeans+blackscholes)";
        std::vector<std::string> specs;
        size_t from = 0;
        while (true) {
            const size_t plus = arg.find('+', from);
            specs.push_back(arg.substr(from, plus == std::string::npos ? std::string::npos : plus - from));
            if (plus == std::string::npos) break;
            from = plus + 1;
        }
        if (specs.size() < 2) throw InputError("--workload: concurrent: needs at least two workloads" + usage);
        std::vector<std::unique_ptr<Workload>> parts;
        for (size_t p = 0; p < specs.size(); ++p) {
            const std::string& s = specs[p];
            if (s.empty()) throw InputError("--workload: concurrent: part " + std::to_string(p) + " is empty" + usage);
            if (s.substr(0, s.find(':')) == "concurrent")
                throw InputError("--workload: concurrent: part " + std::to_string(p) + " '" + s +
                                 "' is itself concurrent (list every part at the top level)");
            parts.push_back(WorkloadRegistry::builtin().create(s, seed));
        }
        return std::make_unique<ConcurrentWorkload>(std::move(specs), std::move(parts));
    };
    return info;
}

} // namespace gpusim
