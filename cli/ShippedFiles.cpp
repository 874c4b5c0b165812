#include "cli/ShippedFiles.hpp"

namespace gpusim {

namespace fs = std::filesystem;

fs::path shippedFile(const std::string& rel) {
    std::error_code ec;
    if (fs::exists(rel, ec)) return rel;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "gpusim" / rel;
        if (fs::exists(installed, ec)) return installed;
    }
    const fs::path source = fs::path(GPUSIM_SOURCE_DIR) / rel;
    if (fs::exists(source, ec)) return source;
    return rel;
}

} // namespace gpusim
