#pragma once
// Where platform files are found: a path (contains '/' or ends in .json) is used as is; a name
// is looked up as NAME.json in $GPUSIM_PLATFORM_DIR, then the installed share directory, then the
// source tree's platforms/ folder.
#include <string>
#include <utility>
#include <vector>

namespace gpusim {

std::string resolvePlatform(const std::string& nameOrPath);
// (name, description) of every platform file in the first directory that exists.
std::vector<std::pair<std::string, std::string>> listPlatforms();

} // namespace gpusim
