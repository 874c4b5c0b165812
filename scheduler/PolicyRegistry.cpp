#include "scheduler/PolicyRegistry.hpp"

#include <cmath>
#include <sstream>

#include "common/Spec.hpp"
#include "common/Spelling.hpp"
#include "scheduler/CcwsPolicy.hpp"
#include "scheduler/CwlpPolicyInfo.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "scheduler/IpawsPolicyInfo.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "scheduler/MascarPolicy.hpp"
#include "scheduler/OawsDynPolicy.hpp"
#include "scheduler/OawsStaticPolicy.hpp"
#include "scheduler/OwlPolicy.hpp"
#include "scheduler/SwlPolicy.hpp"
#include "scheduler/TwoLevelPolicy.hpp"

namespace gpusim {

namespace {

using Params = std::map<std::string, double>;

unsigned u(const Params& p, const char* k) { return static_cast<unsigned>(p.at(k)); }

PolicyInfo twoLevel() {
    return {"two-level",
            "two-level (the CCWS paper's 2LVL-GTO): fetch groups of `group` warps per scheduler, GTO "
            "inside and across groups",
            {intParam("group", 8, 1, 64, "warps per fetch group (Narasiman et al.: 8)")},
            [](const Params& p) { return std::make_unique<TwoLevelPolicy>(u(p, "group")); }};
}

PolicyInfo swl() {
    return {"swl",
            "static warp limiting: only the `warps` oldest warps issue, GTO order (SWL-Best: OAWS Table 3)",
            {intParam("warps", 2, 1, 64, "warps allowed to issue (ATAX/BICG/MVT best: 2)"),
             intParam("per_scheduler", 0, 0, 1, "1: the limit applies to each scheduler, 0: to the SM")},
            [](const Params& p) { return std::make_unique<SwlPolicy>(u(p, "warps"), p.at("per_scheduler") != 0); }};
}

PolicyInfo ccws() {
    return {"ccws",
            "cache-conscious wavefront scheduling: victim tag array, lost-locality scores, load cutoff; GTO order",
            {{"k_throttle", 8, 0, 1e6, "K_THROTTLE: score increment scale on a VTA hit"},
             intParam("base_score", 100, 1, 1e6, "base lost-locality score of every warp"),
             intParam("vta_entries", 16, 1, 1024, "victim tag array entries per warp"),
             intParam("vta_ways", 8, 1, 1024, "victim tag array associativity"),
             intParam("decay", 1, 0, 1e6, "score points lost per cycle (down to the base)"),
             {"score_cap", 8, 0, 1e6,
              "per-warp score cap: a score above the base is cut to VTA hits / instructions x score_cap x "
              "cutoff (the authors' release: k_wsc 8); 0: no cap"},
             intParam("probe_merged", 0, 0, 1, "1: a miss merged into an MSHR entry probes the VTA too (release: 0)"),
             intParam("probe_removes", 0, 0, 1, "1: a VTA hit removes the tag (release: 0, the tag stays)"),
             intParam("priority", 0, 0, 1,
                      "0: GTO order (the CCWS paper); 1: largest lost-locality score first, ties in GTO order (the "
                      "OAWS paper's CCWS, section 5)")},
            [](const Params& p) {
                CcwsPolicy::Params c;
                c.kThrottle = p.at("k_throttle");
                c.baseScore = u(p, "base_score");
                c.vtaEntries = u(p, "vta_entries");
                c.vtaWays = u(p, "vta_ways");
                c.decay = u(p, "decay");
                c.scoreCap = p.at("score_cap");
                c.probeMerged = p.at("probe_merged") != 0;
                c.probeRemoves = p.at("probe_removes") != 0;
                c.scoreFirst = p.at("priority") != 0;
                return std::make_unique<CcwsPolicy>(c);
            },
            [](const Params& p) -> std::string {
                if (u(p, "vta_entries") % u(p, "vta_ways") != 0)
                    return "vta_entries: " + std::to_string(u(p, "vta_entries")) + " is not a multiple of vta_ways (" +
                           std::to_string(u(p, "vta_ways")) + ")";
                return "";
            }};
}

PolicyInfo mascar() {
    return {"mascar",
            "MASCAR: memory instructions first; at saturation only an owner warp issues memory; "
            "re-execution queue for refused L1D accesses",
            {intParam("reexec_entries", 32, 0, 1024, "re-execution queue entries (0: none)"),
             intParam("saturation_free", 1, 0, 1024,
                      "saturated when free MSHRs or free miss-queue slots are at most this"),
             intParam("send_gate", 0, 0, 1,
                      "0: at saturation non-owner memory instructions wait at issue (Sethia et al.); 1: they "
                      "issue, and their accesses that would go below the L1D are parked and retried (the OAWS "
                      "paper's MASCAR, section 5.2)")},
            [](const Params& p) {
                MascarPolicy::Params m;
                m.reexecEntries = u(p, "reexec_entries");
                m.saturationFree = u(p, "saturation_free");
                m.sendGate = p.at("send_gate") != 0;
                return std::make_unique<MascarPolicy>(m);
            }};
}

PolicyInfo oawsStatic() {
    return {"oaws-static",
            "static OAWS: a divergent load (DLC) issues only if active threads x SMR MSHRs are free (Eq. 1); GTO order",
            {{"smr", 0.5, 0, 1, "static miss rate of divergent loads"},
             intParam("dlc_entries", 32, 1, 1024, "divergent load classifier entries"),
             intParam("coherent_lines", 2, 1, 32, "a load with more line accesses than this is divergent")},
            [](const Params& p) {
                OawsStaticPolicy::Params o;
                o.smr = p.at("smr");
                o.dlcEntries = u(p, "dlc_entries");
                o.coherentLines = u(p, "coherent_lines");
                return std::make_unique<OawsStaticPolicy>(o);
            }};
}

PolicyInfo oawsDyn() {
    return {"oaws-dyn",
            "dynamic OAWS: OCW estimation; locality warps predicted 0 misses, thrashing warps "
            "Div x 50% + GTO priority (Eq. 1); GTO order",
            {{"miss_rate", 0.5, 0, 1, "miss rate of thrashing warps' divergent loads"},
             intParam("dlc_entries", 32, 1, 1024, "divergent load classifier entries"),
             intParam("coherent_lines", 2, 1, 32, "a load with more line accesses than this is divergent"),
             {"assoc_factor", 1.5, 0, 64, "associativity-sensitive when #acc > assoc_factor x #sets"},
             intParam("cmax", 255, 1, 65535, "CNT saturation value (8-bit counter: 255)"),
             intParam("cnt_init", 128, 0, 65535, "CNT initial value"),
             intParam("ocw_init", 2, 1, 1024, "OCW initial value"),
             intParam("ocw_min", 2, 1, 1024, "OCW lower bound"),
             intParam("reset_per_kernel", 1, 0, 1, "1: OCW and CNT restart at each kernel launch")},
            [](const Params& p) {
                OawsDynPolicy::Params o;
                o.thrashMissRate = p.at("miss_rate");
                o.dlcEntries = u(p, "dlc_entries");
                o.coherentLines = u(p, "coherent_lines");
                o.assocFactor = p.at("assoc_factor");
                o.ocw.cmax = u(p, "cmax");
                o.ocw.cntInit = u(p, "cnt_init");
                o.ocw.ocwInit = u(p, "ocw_init");
                o.ocw.ocwMin = u(p, "ocw_min");
                o.resetPerKernel = p.at("reset_per_kernel") != 0;
                return std::make_unique<OawsDynPolicy>(o);
            },
            [](const Params& p) -> std::string {
                if (p.at("cnt_init") > p.at("cmax"))
                    return "cnt_init: " + std::to_string(u(p, "cnt_init")) + " exceeds cmax (" +
                           std::to_string(u(p, "cmax")) + ")";
                if (p.at("ocw_min") > p.at("ocw_init"))
                    return "ocw_min: " + std::to_string(u(p, "ocw_min")) + " exceeds ocw_init (" +
                           std::to_string(u(p, "ocw_init")) + ")";
                return "";
            }};
}

PolicyInfo owl(const std::string& name, OwlPolicy::Variant variant, const std::string& description,
               bool prefetch = false) {
    std::vector<PolicyParam> params = {
        intParam("min_warps", 8, 1, 1024, "minimum warps per CTA group (OWL: pipeline depth, best at 8)")};
    if (variant == OwlPolicy::Variant::Blp)
        params.push_back(intParam("blp_shift", 1, 0, 1024,
                                  "SM s prioritises group (s x blp_shift) mod groups first (0: like owl-locality)"));
    return {name, description, params, [name, variant, prefetch](const Params& p) {
                OwlPolicy::Params o;
                o.name = name;
                o.variant = variant;
                o.dramPrefetch = prefetch;
                o.minWarps = u(p, "min_warps");
                if (p.count("blp_shift")) o.blpShift = u(p, "blp_shift");
                return std::make_unique<OwlPolicy>(o);
            }};
}

std::string formatNumber(double x) {
    std::ostringstream os;
    os << x;
    return os.str();
}

} // namespace

nlohmann::json PolicyChoice::toJson() const {
    nlohmann::json j = {{"name", info ? info->name : ""}, {"params", nlohmann::json::object()}};
    for (const auto& [k, v] : params) j["params"][k] = v;
    return j;
}

const PolicyRegistry& PolicyRegistry::builtin() { return process(); }

PolicyRegistry& PolicyRegistry::process() {
    static PolicyRegistry reg = [] {
        PolicyRegistry r;
        r.add({"lrr", "loose round-robin: turns in warp-slot order, skipping warps that cannot issue",
               {},
               [](const std::map<std::string, double>&) { return std::make_unique<LrrPolicy>(); }});
        r.add({"gto", "greedy-then-oldest: the last issuer until it stalls, then the oldest warp",
               {},
               [](const std::map<std::string, double>&) { return std::make_unique<GtoPolicy>(); }});
        r.add(twoLevel());
        r.add(swl());
        r.add(ccws());
        r.add(mascar());
        r.add(oawsStatic());
        r.add(oawsDyn());
        r.add(lpcPolicyInfo());
        r.add(cwlpPolicyInfo());
        r.add(ipawsPolicyInfo());
        {
            const PolicyInfo greedy = ccws();
            r.add(ipawsPolicyInfo(&greedy));
        }
        r.add(owl("owl-cta", OwlPolicy::Variant::CtaAware,
                  "OWL CTA-aware two-level: CTA groups of >= min_warps warps, round-robin inside a group and "
                  "across groups, switch when every warp of the group is blocked"));
        r.add(owl("owl-locality", OwlPolicy::Variant::Locality,
                  "OWL locality-aware: as owl-cta, but the oldest group keeps priority until it finishes and a "
                  "blocked group whose data returned is resumed first"));
        r.add(owl("owl-blp", OwlPolicy::Variant::Blp,
                  "OWL BLP-aware: owl-locality with each SM prioritising a different (non-consecutive) CTA group, "
                  "by SM id"));
        r.add(owl("owl", OwlPolicy::Variant::Blp,
                  "OWL: owl-blp plus the DRAM controllers' opportunistic prefetch of open rows into the L2 "
                  "(dram.prefetch=owl)",
                  true));
        return r;
    }();
    return reg;
}

namespace {
std::string originText(const PolicyInfo& i) {
    return i.origin.empty() ? "the built-in '" + i.name + "'" : "'" + i.name + "' of plugin " + i.origin;
}
} // namespace

void PolicyRegistry::add(PolicyInfo info) {
    const std::string self = info.origin.empty() ? "scheduler '" + info.name + "'"
                                                 : "scheduler '" + info.name + "' of plugin " + info.origin;
    if (info.name.empty() || info.name.find_first_of(":,= ") != std::string::npos)
        throw InputError(self + ": a scheduler name must be non-empty, without ':', ',', '=' or spaces");
    if (!info.make) throw InputError(self + ": no make function");
    for (const auto& p : info.params)
        if (!(p.min <= p.defaultValue && p.defaultValue <= p.max))
            throw InputError(self + ": parameter " + p.name + ": default " + formatNumber(p.defaultValue) +
                             " is outside its range " + formatNumber(p.min) + " .. " + formatNumber(p.max));
    if (const PolicyInfo* old = find(info.name)) throw InputError(self + " clashes with " + originText(*old));
    infos_.push_back(std::move(info));
}

const PolicyInfo* PolicyRegistry::find(const std::string& name) const {
    for (const auto& i : infos_)
        if (i.name == name) return &i;
    return nullptr;
}

PolicyChoice PolicyRegistry::parse(const std::string& given) const {
    const std::string what = "--scheduler";
    std::string text = given;
    // "swl:2" -> "swl:warps=2" (a lone value is the first parameter's).
    const auto colon = text.find(':');
    if (colon != std::string::npos && colon + 1 < text.size() &&
        text.find_first_of("=,", colon) == std::string::npos) {
        const std::string name = text.substr(0, colon);
        for (const auto& i : infos_)
            if (i.name == name && !i.params.empty())
                text = name + ":" + i.params.front().name + "=" + text.substr(colon + 1);
    }
    Spec spec = parseSpec(text, what);
    PolicyChoice choice;
    for (const auto& i : infos_)
        if (i.name == spec.name) choice.info = &i;
    if (!choice.info) {
        std::vector<std::string> names;
        for (const auto& i : infos_) names.push_back(i.name);
        throw InputError(what + ": unknown scheduler '" + spec.name + "'" + didYouMean(spec.name, names) +
                         " (see gpusim list schedulers)");
    }
    for (const auto& p : choice.info->params) choice.params[p.name] = p.defaultValue;
    for (const auto& [k, v] : spec.params) {
        const PolicyParam* decl = nullptr;
        for (const auto& p : choice.info->params)
            if (p.name == k) decl = &p;
        if (!decl) {
            std::string known;
            std::vector<std::string> names;
            for (const auto& p : choice.info->params) {
                known += (known.empty() ? "" : ", ") + p.name;
                names.push_back(p.name);
            }
            throw InputError(what + ": " + spec.name + ": unknown parameter '" + k + "'" + didYouMean(k, names) +
                             " (known: " + (known.empty() ? "none" : known) + ")");
        }
        char* end = nullptr;
        double x = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end != '\0' || !std::isfinite(x))
            throw InputError(what + ": " + spec.name + ": " + k + ": '" + v + "' is not a number");
        if (x < decl->min || x > decl->max) {
            std::ostringstream os;
            os << what << ": " << spec.name << ": " << k << ": " << v << " is out of range "
               << decl->min << " .. " << decl->max;
            throw InputError(os.str());
        }
        if (decl->integer && x != std::floor(x))
            throw InputError(what + ": " + spec.name + ": " + k + ": " + v + " is not an integer");
        choice.params[k] = x;
    }
    if (choice.info->check) {
        const std::string err = choice.info->check(choice.params);
        if (!err.empty()) throw InputError(what + ": " + spec.name + ": " + err);
    }
    return choice;
}

std::string PolicyRegistry::listing() const {
    std::ostringstream os;
    for (const auto& i : infos_) {
        os << i.name << "  " << i.description;
        if (!i.origin.empty()) os << " (plugin " << i.origin << ")";
        os << "\n";
        for (const auto& p : i.params)
            os << "    " << p.name << "=" << formatNumber(p.defaultValue) << "  [" << p.min << " .. " << p.max
               << "]  " << p.description << "\n";
    }
    return os.str();
}

} // namespace gpusim
