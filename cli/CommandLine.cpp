#include "cli/CommandLine.hpp"

#include "common/SimError.hpp"
#include "scheduler/PolicyPlugin.hpp"

namespace po = boost::program_options;

namespace gpusim {

void addPluginOption(po::options_description& d, std::vector<std::string>& plugins) {
    d.add_options()("plugin", po::value(&plugins)->composing(),
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

po::variables_map parseCommandLine(const po::options_description& d, const std::vector<std::string>& args,
                                   const po::positional_options_description* pos) {
    po::variables_map vm;
    try {
        auto parser = po::command_line_parser(args).options(d);
        po::positional_options_description none;
        parser.positional(pos ? *pos : none);
        size_t positional = 0;
        const size_t allowed = pos ? pos->max_total_count() : 0;
        for (size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a.size() > 1 && a[0] == '-') {
                // An option: skip its value if it takes one and was not given as --opt=value.
                const bool isLong = a[1] == '-';
                // Boost matches short options with their dash ("-w"); "-wX" carries its value.
                const std::string key = isLong ? a.substr(2) : a;
                if (key.find('=') == std::string::npos && (isLong || a.size() == 2)) {
                    const auto* o = d.find_nothrow(key, false);
                    if (o && o->semantic()->max_tokens() > 0) ++i;
                }
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
