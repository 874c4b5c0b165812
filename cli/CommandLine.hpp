#pragma once
// Option parsing shared by every `gpusim` command: Boost.Program_options with its errors turned
// into InputError("command line: ..."), and a stray word named in the message (Boost's own
// message does not say which word it was).
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

boost::program_options::variables_map parseCommandLine(
    const boost::program_options::options_description& d, const std::vector<std::string>& args,
    const boost::program_options::positional_options_description* positional = nullptr);

} // namespace gpusim
