#include "cli/CommandLine.hpp"

#include <sstream>

#include "common/SimError.hpp"
#include "common/Spelling.hpp"
#include "scheduler/PolicyPlugin.hpp"

namespace po = boost::program_options;

namespace gpusim {

void addPluginOption(po::options_description& d, std::vector<std::string>& plugins) {
    d.add_options()("plugin", po::value(&plugins)->value_name("LIB")->composing(),
                    "load warp-scheduling policies from this shared library (repeatable; docs/extending.md)");
}

std::vector<std::string> loadPlugins(const std::vector<std::string>& plugins) {
    std::vector<std::string> absolute;
    for (const auto& p : plugins) loadPolicyPlugin(p, "--plugin");
    for (const auto& p : loadedPolicyPlugins()) absolute.push_back(p);
    return absolute;
}

std::vector<std::string> pluginArgs(const std::vector<std::string>& plugins) {
    std::vector<std::string> a;
    for (const auto& p : plugins) a.insert(a.end(), {"--plugin", p});
    return a;
}

namespace {

// Every long option of `d` ("--platform"), for a suggestion.
std::vector<std::string> longOptions(const po::options_description& d) {
    std::vector<std::string> names;
    for (const auto& o : d.options())
        if (!o->long_name().empty()) names.push_back("--" + o->long_name());
    return names;
}

} // namespace

std::string helpText(const std::string& usage, const std::string& summary, const po::options_description& d) {
    std::ostringstream os;
    os << usage << (usage.ends_with("\n") ? "" : "\n");
    if (!summary.empty()) os << summary << (summary.ends_with("\n") ? "" : "\n");
    os << "\n" << d;
    return os.str();
}

std::string defaultText(double v) {
    std::ostringstream os;
    os << v;  // six significant digits: the defaults are short decimals
    return os.str();
}

po::variables_map parseCommandLine(const po::options_description& d, const std::vector<std::string>& args,
                                   const po::positional_options_description* pos) {
    po::variables_map vm;
    try {
        auto parser = po::command_line_parser(args).options(d);
        po::positional_options_description none;
        parser.positional(pos ? *pos : none);
        // Before Boost parses: an unknown option is named here (with the nearest known one), and
        // a word that is neither an option, an option's value nor an allowed positional is named
        // (Boost's own messages say neither which word nor what was meant).
        size_t positional = 0;
        const size_t allowed = pos ? pos->max_total_count() : 0;
        for (size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a.size() > 1 && a[0] == '-') {
                const bool isLong = a[1] == '-';
                // Boost matches short options with their dash ("-w"); "-wX" carries its value.
                const std::string key = isLong ? a.substr(2, a.find('=') - 2) : a.substr(0, 2);
                // Long options may be abbreviated to a unique prefix (Boost's guessing, on by
                // default); an ambiguous prefix throws Boost's own error, naming the matches.
                const po::option_description* o = nullptr;
                try {
                    o = d.find_nothrow(key, /*approx=*/isLong);
                } catch (const po::ambiguous_option& e) {
                    std::string alts;
                    const auto& all = e.alternatives();
                    for (size_t k = 0; k < all.size(); ++k)
                        alts += (k ? (k + 1 == all.size() ? " or " : ", ") : "") + ("'--" + all[k] + "'");
                    throw InputError("command line: option '--" + key + "' is ambiguous: " + alts);
                }
                if (!o)
                    throw InputError("command line: unknown option '" + (isLong ? "--" + key : key) + "'" +
                                     (isLong ? didYouMean("--" + key, longOptions(d)) : ""));
                // An option taking a value, given as "--opt value" or "-w value": skip the value.
                const bool attached = isLong ? a.find('=') != std::string::npos : a.size() > 2;
                if (!attached && o->semantic()->max_tokens() > 0) ++i;
                continue;
            }
            if (++positional > allowed) throw InputError("command line: unexpected argument '" + a + "'");
        }
        po::store(parser.run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw InputError(std::string("command line: ") + e.what());
    }
    return vm;
}

} // namespace gpusim
