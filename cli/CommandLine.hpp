#pragma once
// Option parsing and help shared by every `gpusim` command: Boost.Program_options with its errors
// turned into InputError("command line: ..."), an unknown option named with the nearest known one
// and a stray word named in the message (Boost's own messages say neither), and one help layout.
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace gpusim {

// --plugin PATH (repeatable): a shared library adding warp-scheduling policies (docs/extending.md).
void addPluginOption(boost::program_options::options_description& d, std::vector<std::string>& plugins);
// Loads each plugin (InputError naming the path on failure) and returns their absolute paths, as
// child `gpusim run` processes are given them.
std::vector<std::string> loadPlugins(const std::vector<std::string>& plugins);
// {"--plugin", P1, "--plugin", P2, ...}
std::vector<std::string> pluginArgs(const std::vector<std::string>& plugins);

// `gpusim CMD --help` and `gpusim help CMD`: the usage line(s), what the command does, then the
// option table (each value named, NAME or CYCLES, and its default as Boost prints it).
std::string helpText(const std::string& usage, const std::string& summary,
                     const boost::program_options::options_description& d);

// A default as a person writes it (0.1, not Boost's 0.10000000000000001), for default_value's text.
std::string defaultText(double v);

boost::program_options::variables_map parseCommandLine(
    const boost::program_options::options_description& d, const std::vector<std::string>& args,
    const boost::program_options::positional_options_description* positional = nullptr);

} // namespace gpusim
