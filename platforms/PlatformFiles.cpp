#include "platforms/PlatformFiles.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "common/Spelling.hpp"

namespace gpusim {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path>& addedDirs() {
    static std::vector<fs::path> dirs;  // a function static: filled during static initialisation
    return dirs;
}

// <prefix>/share/gpusim/platforms for an executable at <prefix>/bin (Linux: /proc/self/exe).
fs::path besideExecutable() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return exe.parent_path().parent_path() / "share" / "gpusim" / "platforms";
}

std::vector<fs::path> searchDirs() {
    std::vector<fs::path> dirs;
    if (const char* env = std::getenv("GPUSIM_PLATFORM_DIR")) dirs.emplace_back(env);
    for (const auto& d : addedDirs()) dirs.push_back(d);
    if (fs::path d = besideExecutable(); !d.empty()) {
        std::error_code ec;
        if (fs::is_directory(d, ec)) dirs.push_back(d);
    }
    dirs.emplace_back(GPUSIM_INSTALL_PLATFORM_DIR);
    dirs.emplace_back(GPUSIM_SOURCE_PLATFORM_DIR);
    return dirs;
}

} // namespace

void addPlatformDir(const std::string& dir) { addedDirs().emplace_back(dir); }

std::string resolvePlatform(const std::string& s) {
    if (s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".json")) {
        std::error_code ec;
        if (!fs::exists(s, ec)) throw InputError("--platform: " + s + ": no such file");
        if (!fs::is_regular_file(s, ec)) throw InputError("--platform: " + s + ": not a regular file");
        return s;
    }
    for (const auto& d : searchDirs()) {
        auto p = d / (s + ".json");
        std::error_code ec;
        if (fs::is_regular_file(p, ec)) return p.string();
    }
    std::vector<std::string> names;
    for (const auto& [name, desc] : listPlatforms()) names.push_back(name);
    throw InputError("--platform: unknown platform '" + s + "'" + didYouMean(s, names) + " (see gpusim list platforms)");
}

std::vector<std::pair<std::string, std::string>> listPlatforms() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& d : searchDirs()) {
        if (!fs::is_directory(d)) continue;
        for (const auto& e : fs::directory_iterator(d)) {
            if (e.path().extension() != ".json") continue;
            std::ifstream in(e.path());
            auto j = nlohmann::json::parse(in, nullptr, false, true);
            std::string desc = j.is_object() && j.contains("description") && j["description"].is_string()
                                   ? j["description"].get<std::string>()
                                   : "";
            out.emplace_back(e.path().stem().string(), desc);
        }
        break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace gpusim
