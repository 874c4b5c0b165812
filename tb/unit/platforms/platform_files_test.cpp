// The platform-file lookup's installed-package part (platforms/PlatformFiles.hpp): a directory
// registered with addPlatformDir (what a program built against the installed package gets for
// share/gpusim/platforms) is searched after $GPUSIM_PLATFORM_DIR and before the built-in
// locations; listPlatforms reads the first directory that exists.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "common/SimError.hpp"
#include "platforms/PlatformFiles.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace gpusim {
namespace platform_files_test {

void writePlatform(const std::filesystem::path& dir, const std::string& name, const std::string& desc) {
    std::filesystem::create_directories(dir);
    std::ofstream(dir / (name + ".json")) << "{\"name\": \"" << name << "\", \"description\": \"" << desc
                                           << "\", \"params\": {}}\n";
}

TEST(PlatformFiles, AddedDirectoryIsSearchedBeforeTheSourceTree) {
    unsetenv("GPUSIM_PLATFORM_DIR");
    tb::ScratchDir dir;
    // A name only the added directory has, and fermi15, which the source tree has too.
    writePlatform(dir.path(), "pkgonly", "from the package");
    writePlatform(dir.path(), "fermi15", "the package's copy");
    addPlatformDir(dir.path().string());
    EXPECT_EQ(resolvePlatform("pkgonly"), (dir.path() / "pkgonly.json").string());
    EXPECT_EQ(resolvePlatform("fermi15"), (dir.path() / "fermi15.json").string());
    // listPlatforms lists the first existing directory only: exactly the two files above.
    const auto list = listPlatforms();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].first, "fermi15");
    EXPECT_EQ(list[0].second, "the package's copy");
    EXPECT_EQ(list[1].first, "pkgonly");
    EXPECT_THROW(resolvePlatform("nosuchplatform"), InputError);
}

TEST(PlatformFiles, EnvironmentComesBeforeAnAddedDirectory) {
    tb::ScratchDir env, added;
    writePlatform(env.path(), "p", "env");
    writePlatform(added.path(), "p", "added");
    writePlatform(added.path(), "q", "added");
    setenv("GPUSIM_PLATFORM_DIR", env.path().c_str(), 1);
    addPlatformDir(added.path().string());
    EXPECT_EQ(resolvePlatform("p"), (env.path() / "p.json").string());
    EXPECT_EQ(resolvePlatform("q"), (added.path() / "q.json").string());  // not in env: the next directory
    unsetenv("GPUSIM_PLATFORM_DIR");
}

TEST(PlatformFiles, WithoutAddedDirectoriesTheSourceTreeServes) {
    unsetenv("GPUSIM_PLATFORM_DIR");
    // No package, no installed prefix with platforms here: the source tree's platforms/ folder.
    if (std::filesystem::exists("/usr/local/share/gpusim/platforms"))
        GTEST_SKIP() << "an installed gpusim in /usr/local comes before the source tree";
    EXPECT_EQ(resolvePlatform("fermi15"), std::string(GPUSIM_SOURCE_DIR) + "/platforms/fermi15.json");
}

} // namespace platform_files_test
} // namespace gpusim
