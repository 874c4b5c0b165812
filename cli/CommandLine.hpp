#pragma once
// Option parsing shared by every `gpusim` command: Boost.Program_options with its errors turned
// into InputError("command line: ..."), and a stray word named in the message (Boost's own
// message does not say which word it was).
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace gpusim {

boost::program_options::variables_map parseCommandLine(
    const boost::program_options::options_description& d, const std::vector<std::string>& args,
    const boost::program_options::positional_options_description* positional = nullptr);

} // namespace gpusim
