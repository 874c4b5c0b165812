#include "experiments/RunReport.hpp"

#include <sstream>

#include "common/SimError.hpp"
#include "experiments/LineChart.hpp"

namespace gpusim::report {

namespace {

using nlohmann::json;
using chart::escapeXml;

std::vector<std::optional<double>> column(const json& cols, const std::string& name) {
    std::vector<std::optional<double>> v;
    if (!cols.contains(name)) return v;
    for (const json& x : cols[name]) v.push_back(x.is_number() ? std::optional<double>(x.get<double>()) : std::nullopt);
    return v;
}

std::string str(const json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

} // namespace

SweepReport buildRunReport(const json& run, const std::string& source) {
    if (!run.is_object() || !run.contains("stats")) throw InputError(source + ": no \"stats\" object (not a run's statistics file)");
    SweepReport r;
    const json scheduler = run.value("scheduler", json::object()), workload = run.value("workload", json::object());
    const std::string title = "Run " + str(run, "platform") + " / " + str(scheduler, "name") + " / " + str(workload, "name");
    std::ostringstream body;
    if (run.contains("summary")) {
        const json& s = run["summary"];
        body << "<table><tbody>\n";
        for (const char* k : {"cycles", "warp_instructions", "ipc", "l1d_read_miss_rate", "l2_read_hit_rate",
                              "dram_row_hit_rate", "avg_load_latency_cycles"})
            if (s.contains(k) && s[k].is_number())
                body << "<tr><th>" << k << "</th><td>" << chart::formatValue(s[k].get<double>()) << "</td></tr>\n";
        body << "</tbody></table>\n";
    }
    if (run.contains("kernels") && run["kernels"].is_array()) {
        body << "<h2>Kernels</h2>\n<table><thead><tr><th>#</th><th>name</th><th>stream</th><th>start</th><th>end</th>"
                "<th>warp instructions in its window</th></tr></thead><tbody>\n";
        const json ks = run.value("kernel_stats", json::array());
        size_t i = 0;
        for (const json& k : run["kernels"]) {
            std::string issued = "-";
            if (i < ks.size() && ks[i].contains("stats") && ks[i]["stats"].contains("sm*.issued"))
                issued = chart::formatValue(ks[i]["stats"]["sm*.issued"].get<double>());
            body << "<tr><td>" << i++ << "</td><td>" << escapeXml(str(k, "name")) << "</td><td>" << k.value("stream", json()).dump()
                 << "</td><td>" << k.value("start_cycle", json()).dump() << "</td><td>" << k.value("end_cycle", json()).dump()
                 << "</td><td>" << issued << "</td></tr>\n";
        }
        body << "</tbody></table>\n";
    }
    if (!run.contains("time_series")) {
        r.notes.push_back("the run has no time series (run it with --sample-interval CYCLES)");
    } else {
        const json& ts = run["time_series"];
        const json& cols = ts["columns"];
        std::vector<double> x;
        for (const json& c : cols["cycle"]) x.push_back(c.get<double>());
        struct Spec {
            const char* name;
            const char* title;
            const char* y;
            std::vector<std::pair<const char*, const char*>> lines;  // column, legend
        };
        const std::vector<Spec> specs = {
            {"ts_ipc", "IPC per interval", "warp instructions / core cycle", {{"ipc", "IPC"}}},
            {"ts_miss_rates", "Miss rates per interval", "fraction", {{"l1d_miss_rate", "L1D read"}, {"l2_miss_rate", "L2 data read"}}},
            {"ts_dram_bandwidth", "DRAM bandwidth per interval", "GB/s", {{"dram_bandwidth_gbps", "DRAM"}}},
            {"ts_dram_row_hits", "DRAM row-buffer hit rate per interval", "fraction", {{"dram_row_hit_rate", "row hits"}}},
            {"ts_noc_latency", "NoC packet latency per interval", "NoC cycles",
             {{"noc_req_latency", "requests"}, {"noc_reply_latency", "replies"}}},
            {"ts_active_warps", "Active warps at each interval's end", "warps", {{"active_warps", "all SMs"}}},
        };
        std::vector<std::string> smNames;
        for (unsigned i = 0; cols.contains("sm" + std::to_string(i) + ".ipc"); ++i) smNames.push_back("sm" + std::to_string(i) + ".ipc");
        body << "<h2>Over time</h2>\n<p>Every " << ts.value("interval_cycles", json()).dump()
             << " core cycles; a gap is an interval with nothing to divide by (no reads, no packets).</p>\n";
        auto emit = [&](const std::string& name, const chart::LineChart& c) {
            const std::string svg = chart::renderSvg(c);
            r.charts.push_back({name, c.title, svg});
            body << "<figure id=\"" << name << "\">" << svg << "<figcaption>" << escapeXml(c.title) << "</figcaption></figure>\n";
        };
        for (const Spec& s : specs) {
            chart::LineChart c{s.title, "core cycle", s.y, x, {}};
            for (const auto& [col, legend] : s.lines) c.lines.push_back({legend, column(cols, col)});
            emit(s.name, c);
        }
        chart::LineChart sm{"IPC per SM per interval", "core cycle", "warp instructions / core cycle", x, {}};
        for (const std::string& n : smNames) sm.lines.push_back({n.substr(0, n.find('.')), column(cols, n)});
        emit("ts_sm_ipc", sm);
    }
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << escapeXml(title)
      << "</title>\n<style>\nbody{font-family:'DejaVu Sans',Arial,sans-serif;margin:24px;color:#222}\n"
         "table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #ccc;padding:2px 8px;text-align:right}\n"
         "figure{margin:20px 0}figcaption{font-size:13px}\n</style>\n</head>\n<body>\n<h1>"
      << escapeXml(title) << "</h1>\n<p>Statistics file <code>" << escapeXml(source) << "</code>.</p>\n";
    for (const auto& n : r.notes) h << "<p class=\"note\">Note: " << escapeXml(n) << "</p>\n";
    h << body.str() << "</body>\n</html>\n";
    r.html = h.str();
    return r;
}

} // namespace gpusim::report
