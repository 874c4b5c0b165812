#include "cli/NocCommand.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "cli/CommandLine.hpp"
#include "interconnect/NocParams.hpp"
#include "interconnect/SyntheticTraffic.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"

namespace po = boost::program_options;

namespace gpusim {

namespace {

const char* kNocUsage =
    "usage: gpusim noc [options]\n"
    "Synthetic traffic on one subnet built from the platform's noc.* parameters: every one of\n"
    "--nodes terminals sends (Bernoulli, --rate flits per node per cycle) and receives.\n"
    "  gpusim noc --topology mesh --nodes 64 --rate 0.3            one run, a summary\n"
    "  gpusim noc --topology crossbar --sweep > curve.csv          latency vs offered load (CSV)\n"
    "  gpusim noc --topology butterfly --soak                      overload, then check delivery\n";

// "a:b:step" (inclusive) or "r1,r2,...".
std::vector<double> parseRates(const std::string& text) {
    std::vector<double> out;
    auto num = [&](const std::string& s) {
        try {
            size_t used = 0;
            const double v = std::stod(s, &used);
            if (used != s.size()) throw std::invalid_argument(s);
            return v;
        } catch (const std::exception&) {
            throw InputError("--rates: '" + text + "': expected FROM:TO:STEP or a comma-separated list");
        }
    };
    if (text.find(':') != std::string::npos) {
        std::vector<std::string> parts;
        std::stringstream ss(text);
        for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
        if (parts.size() != 3) throw InputError("--rates: '" + text + "': expected FROM:TO:STEP");
        const double from = num(parts[0]), to = num(parts[1]), step = num(parts[2]);
        if (!(step > 0) || from > to) throw InputError("--rates: '" + text + "': empty or endless range");
        for (int i = 0;; ++i) {
            const double r = from + i * step;
            if (r > to + 1e-9 || i > 1000) break;
            out.push_back(r);
        }
    } else {
        std::stringstream ss(text);
        for (std::string p; std::getline(ss, p, ',');) out.push_back(num(p));
    }
    if (out.empty()) throw InputError("--rates: '" + text + "': no rate");
    return out;
}

nlohmann::json toJson(const TrafficResult& r) {
    return {{"topology", r.topology},
            {"nodes", r.nodes},
            {"rate", r.rate},
            {"offered", r.offered},
            {"accepted", r.accepted},
            {"latency", {{"mean", r.latencyMean}, {"p50", r.latencyP50}, {"p99", r.latencyP99}, {"max", r.latencyMax}}},
            {"zero_load_latency", r.zeroLoadLatency},
            {"measured_packets", r.measuredPackets},
            {"measured_delivered", r.measuredDelivered},
            {"created", r.created},
            {"delivered", r.delivered},
            {"duplicates", r.duplicates},
            {"drained", r.drained},
            {"deadlock", r.deadlock},
            {"max_channel_utilisation", r.maxChannelUtilisation},
            {"mean_channel_utilisation", r.meanChannelUtilisation},
            {"mean_buffer_flits_per_router", r.meanBufferFlitsPerRouter},
            {"cycles", r.cycles}};
}

} // namespace

int cmdNoc(const std::vector<std::string>& args) {
    std::string platform = "fermi15", topology, pattern = "uniform", rates = "0.05:1:0.05", statsPath;
    std::vector<std::string> sets;
    unsigned nodes = 16;
    double rate = 0.1;
    TrafficOptions o;
    po::options_description d("gpusim noc options");
    d.add_options()("platform,p", po::value(&platform)->value_name("NAME|FILE")->default_value(platform),
                    "platform name or JSON file whose noc.* parameters build the network")(
        "set", po::value(&sets)->value_name("KEY=VALUE")->composing(),
        "override a parameter: --set noc.vcs=2 (repeatable)")(
        "topology", po::value(&topology)->value_name("crossbar|butterfly|mesh"),
        "the network's topology (default: the platform's noc.topology)")(
        "nodes", po::value(&nodes)->value_name("N")->default_value(nodes),
        "terminals, each a source and a sink (mesh: a square, or noc.mesh.rows x noc.mesh.cols)")(
        "pattern", po::value(&pattern)->value_name("uniform|hotspot|transpose")->default_value(pattern),
        "destinations: uniform random, a share to one hot terminal, or the transposed terminal")(
        "rate", po::value(&rate)->value_name("FLITS")->default_value(rate, defaultText(rate)),
        "offered load, flits per node per cycle, in (0, 1]")(
        "packet-flits", po::value(&o.packetFlits)->value_name("FLITS")->default_value(1), "flits per packet")(
        "hotspot-node", po::value(&o.hotspotNode)->value_name("NODE")->default_value(0),
        "hotspot pattern: the hot terminal")(
        "hotspot-fraction", po::value(&o.hotspotFraction)->value_name("FRACTION")->default_value(0.2, defaultText(0.2)),
        "hotspot pattern: share of packets sent to the hot terminal")(
        "warmup", po::value(&o.warmupCycles)->value_name("CYCLES")->default_value(1000),
        "NoC cycles before the measurement window")(
        "cycles", po::value(&o.measureCycles)->value_name("CYCLES")->default_value(5000),
        "NoC cycles of the measurement window")(
        "drain", po::value(&o.drainCycles)->value_name("CYCLES")->default_value(20000),
        "bound on the NoC cycles after the window spent delivering measured packets")(
        "seed", po::value(&o.seed)->value_name("N")->default_value(1), "seed of the traffic generator")(
        "sweep", "run every rate of --rates and print CSV (offered load, accepted throughput, latency)")(
        "rates", po::value(&rates)->value_name("RATES")->default_value(rates),
        "sweep rates: FROM:TO:STEP or a comma-separated list")(
        "soak", "inject at --rate (use an overload) for --cycles, stop, and check that every packet is "
                "delivered exactly once and the network drains (exit 3 otherwise)")(
        "stats", po::value(&statsPath)->value_name("FILE"),
        "write the result(s) and the noc.* configuration as JSON to this file")(
        "help,h", "show these options");
    const po::variables_map vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText(kNocUsage, "", d);
        return 0;
    }
    if (vm.count("sweep") && vm.count("soak")) throw InputError("--sweep and --soak: choose one");

    Config cfg(gpuSchema());
    cfg.setBaseResolver(resolvePlatform);
    cfg.loadFile(resolvePlatform(platform));
    for (const auto& s : sets) cfg.setFromString(s);
    if (!topology.empty()) cfg.setFromString("noc.topology=" + topology, "--topology");
    cfg.validate();
    const NocParams params = NocParams::from(cfg);
    o.pattern = parsePattern(pattern, "--pattern");
    o.soak = vm.count("soak") > 0;
    std::ofstream statsOut;
    if (!statsPath.empty()) {
        statsOut.open(statsPath);
        if (!statsOut) throw InputError("--stats: " + statsPath + ": cannot open for writing");
    }
    nlohmann::json nocConfig = nlohmann::json::object();
    const nlohmann::json all = cfg.toJson();  // named: items() must not outlive it
    for (const auto& [k, v] : all.items())
        if (k.rfind("noc.", 0) == 0) nocConfig[k] = v;
    nlohmann::json doc = {{"platform", cfg.platformName()},
                          {"config", nocConfig},
                          {"pattern", patternName(o.pattern)},
                          {"packet_flits", o.packetFlits},
                          {"seed", o.seed}};

    if (vm.count("sweep")) {
        std::vector<TrafficResult> results;
        std::printf("rate,offered,accepted,latency_mean,latency_p50,latency_p99,latency_max,zero_load_latency,drained\n");
        for (double r : parseRates(rates)) {
            o.rate = r;
            results.push_back(runTraffic(params, nodes, o));
            const TrafficResult& t = results.back();
            std::printf("%.4g,%.4f,%.4f,%.2f,%.0f,%.0f,%.0f,%.2f,%d\n", t.rate, t.offered, t.accepted, t.latencyMean, t.latencyP50,
                        t.latencyP99, t.latencyMax, t.zeroLoadLatency, t.drained ? 1 : 0);
            std::fflush(stdout);
        }
        double peak = 0;
        for (const auto& t : results) peak = std::max(peak, t.accepted);
        const int sat = saturationIndex(results);
        char msg[512];
        if (sat < 0) {
            std::snprintf(msg, sizeof msg, "not saturated up to rate %g", results.back().rate);
        } else {
            const TrafficResult& t = results[static_cast<size_t>(sat)];
            std::snprintf(msg, sizeof msg, "saturation at rate %g (accepted %.4f, mean latency %.1f cycles)", t.rate,
                          t.accepted, t.latencyMean);
        }
        std::fprintf(stderr, "gpusim noc: %s, %s: %s; peak accepted throughput %.4f flits/node/cycle\n",
                     results.front().topology.c_str(), patternName(o.pattern), msg, peak);
        nlohmann::json arr = nlohmann::json::array();
        for (const auto& t : results) arr.push_back(toJson(t));
        doc["results"] = arr;
        doc["saturation_index"] = sat;
        doc["peak_accepted"] = peak;
        if (statsOut.is_open()) statsOut << doc.dump(2) << "\n";
        return 0;
    }

    o.rate = rate;
    const TrafficResult t = runTraffic(params, nodes, o);
    doc["results"] = nlohmann::json::array({toJson(t)});
    if (statsOut.is_open()) statsOut << doc.dump(2) << "\n";
    std::printf("gpusim noc: %s, %s, %u-flit packets\n", t.topology.c_str(), patternName(o.pattern), o.packetFlits);
    std::printf("  offered load         %.4f flits/node/cycle\n", t.offered);
    std::printf("  accepted throughput  %.4f flits/node/cycle\n", t.accepted);
    std::printf("  latency              mean %.2f  p50 %.0f  p99 %.0f  max %.0f cycles (zero load %.2f)\n",
                t.latencyMean, t.latencyP50, t.latencyP99, t.latencyMax, t.zeroLoadLatency);
    std::printf("  channels             utilisation max %.3f, mean %.3f\n", t.maxChannelUtilisation,
                t.meanChannelUtilisation);
    std::printf("  input buffers        %.2f flits per router on average\n", t.meanBufferFlitsPerRouter);
    std::printf("  packets              %llu created, %llu delivered, %llu duplicated; %llu of %llu measured delivered\n",
                static_cast<unsigned long long>(t.created), static_cast<unsigned long long>(t.delivered),
                static_cast<unsigned long long>(t.duplicates), static_cast<unsigned long long>(t.measuredDelivered),
                static_cast<unsigned long long>(t.measuredPackets));
    if (o.soak) {
        if (t.deadlock || !t.drained || t.duplicates != 0 || t.delivered != t.created)
            throw ModelError("noc soak: " + std::string(t.deadlock ? "deadlock (no flit moved)" : "did not drain") +
                             " after " + std::to_string(t.cycles) + " cycles; " + std::to_string(t.created) +
                             " packets created, " + std::to_string(t.delivered) + " delivered, " +
                             std::to_string(t.duplicates) + " duplicated");
        std::printf("  soak                 every packet delivered exactly once; drained at cycle %llu\n",
                    static_cast<unsigned long long>(t.cycles));
    } else if (!t.drained) {
        std::printf("  note                 saturated: not every measured packet was delivered within --drain\n");
    }
    return 0;
}

} // namespace gpusim
