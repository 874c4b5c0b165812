#pragma once
// Where platform files are found: a path (contains '/' or ends in .json) is used as is; a name
// is looked up as NAME.json in $GPUSIM_PLATFORM_DIR, then the directories registered with
// addPlatformDir (a program built against the installed CMake package registers the package's
// share/gpusim/platforms automatically, below), then ../share/gpusim/platforms beside the running
// executable (an installed bin/gpusim, wherever the prefix was moved), then the configured install
// prefix's share directory, then the source tree's platforms/ folder.
#include <string>
#include <utility>
#include <vector>

namespace gpusim {

std::string resolvePlatform(const std::string& nameOrPath);
// (name, description) of every platform file in the first directory that exists.
std::vector<std::pair<std::string, std::string>> listPlatforms();
// Adds a directory searched after $GPUSIM_PLATFORM_DIR (in the order added).
void addPlatformDir(const std::string& dir);

#ifdef GPUSIM_PACKAGE_PLATFORM_DIR
// Set by the installed package's gpusim::gpusim target (cmake/gpusimConfig.cmake.in): the
// library was compiled before it was installed, so only its user knows the installed prefix.
namespace detail {
inline const bool packagePlatformDirAdded = (addPlatformDir(GPUSIM_PACKAGE_PLATFORM_DIR), true);
} // namespace detail
#endif

} // namespace gpusim
