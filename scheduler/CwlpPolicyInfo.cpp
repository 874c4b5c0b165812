#include "scheduler/CwlpPolicyInfo.hpp"

#include "scheduler/CwlpPolicy.hpp"
#include "scheduler/LpcPolicy.hpp"

namespace gpusim {

PolicyInfo lpcPolicyInfo() {
    return {"lpc",
            "CWLP's cache part alone: PC-based locality-protected L1D replacement (LPC), LRR warp order",
            {},
            [](const std::map<std::string, double>&) { return std::make_unique<LpcPolicy>(); }};
}

PolicyInfo cwlpPolicyInfo() {
    using Params = std::map<std::string, double>;
    return {"cwlp",
            "CWLP: LPC replacement plus reordering that interleaves long- and short-latency warps "
            "when the locality score shows no locality; LRR order otherwise",
            {intParam("window", 10, 1, 1024, "L1D accesses per locality-information-score window (paper: 10)"),
             intParam("threshold", 5, 0, 1024,
                      "locality when more than this many of a window's accesses were predicted reused (paper: 5)"),
             intParam("count_misses", 1, 0, 1,
                      "1: every L1D read access enters the window (misses as 0); 0: only read hits"),
             intParam("long_class", 0, 0, 1,
                      "latency class of a warp is long when 0: its next instruction is a global memory "
                      "access; 1: it has loads in flight")},
            [](const Params& p) {
                CwlpPolicy::Params c;
                c.lis.window = static_cast<unsigned>(p.at("window"));
                c.lis.threshold = static_cast<unsigned>(p.at("threshold"));
                c.lis.countMisses = p.at("count_misses") != 0;
                c.longClass = static_cast<unsigned>(p.at("long_class"));
                return std::make_unique<CwlpPolicy>(c);
            },
            [](const Params& p) -> std::string {
                if (p.at("threshold") >= p.at("window"))
                    return "threshold: " + std::to_string(static_cast<unsigned>(p.at("threshold"))) +
                           " must be below window (" + std::to_string(static_cast<unsigned>(p.at("window"))) +
                           "), or no window could ever show locality";
                return "";
            }};
}

} // namespace gpusim
