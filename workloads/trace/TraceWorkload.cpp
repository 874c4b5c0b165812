#include "workloads/trace/TraceWorkload.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "common/SimError.hpp"

namespace gpusim {

namespace {

std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(v));
    return b;
}

std::string versionKey(uint64_t binaryVersion) {
    return binaryVersion == kNoBinaryVersion ? "none" : std::to_string(binaryVersion);
}

nlohmann::json counts(const TraceTally::OpcodeCounts& c) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [op, n] : c) j[op] = n;
    return j;
}

void addWarnings(const TraceTally& t, nlohmann::json& warnings) {
    if (t.unknownInstructions > 0) {
        std::string list;
        for (const auto& [op, n] : t.unknownOpcodes) list += (list.empty() ? "" : ", ") + op + " (" + std::to_string(n) + ")";
        warnings.push_back("trace: " + std::to_string(t.unknownInstructions) +
                           " instructions with opcodes not in the opcode table ran as ALU: " + list);
    }
    if (t.appendedExits > 0)
        warnings.push_back("trace: " + std::to_string(t.appendedExits) +
                           " warps did not end with EXIT; an EXIT was appended to each");
    for (const auto& [version, table] : t.substitutedVersions)
        warnings.push_back("trace: -binary version " + std::to_string(version) +
                           " has no opcode table of its own; its kernels' opcodes were looked up in the " +
                           std::string(sassFamilyName(table.family)) + " table (" +
                           (table.beforeOldest ? "the oldest family" : "the nearest older family") + ")");
    if (t.genericMixedWindows > 0)
        warnings.push_back("trace: " + std::to_string(t.genericMixedWindows) +
                           " generic LD/ST instructions had active lanes in more than one window (shared, local, "
                           "global); each went to its first active lane's space, as in Accel-Sim");
    if (t.genericWithoutWindows > 0)
        warnings.push_back("trace: " + std::to_string(t.genericWithoutWindows) +
                           " generic LD/ST instructions in kernels without -shmem base_addr and -local mem base_addr "
                           "went to global memory (Accel-Sim takes them as shared)");
}

} // namespace

TraceWorkload::TraceWorkload(const std::string& path)
    : path_(path), state_(std::make_shared<TraceRunState>()) {
    std::error_code ec;
    const bool isDir = std::filesystem::is_directory(path, ec);
    const std::string listPath = isDir ? path + "/kernelslist.g" : path;
    const std::string dir = isDir ? path : std::filesystem::path(path).parent_path().string();
    if (!std::filesystem::exists(listPath, ec))
        throw InputError("--workload: trace: " + listPath + ": no such file (DIR must hold kernelslist.g)");
    auto listReader = LineReader::openFile(listPath);
    list_ = parseKernelsList(*listReader, dir);
    for (const std::string& file : list_.kernelFiles) {
        // Headers now, so a bad file fails before the simulation; sections later.
        TraceFileReader reader(LineReader::openFile(file));
        const SassTableChoice& table = reader.decoding().opcodes;
        if (table.substituted) state_->tally.substitutedVersions.emplace(table.binaryVersion, table);
        kernels_.push_back(std::make_unique<TraceKernel>(file, reader.header(), state_));
    }
}

nlohmann::json TraceWorkload::params() const {
    return {{"path", path_}, {"kernels", kernels_.size()}, {"memcpy_htod", list_.memcpys.size()}};
}

nlohmann::json TraceWorkload::report() const {
    const TraceTally& t = state_->tally;
    nlohmann::json copies = nlohmann::json::array();
    for (const MemcpyRecord& m : list_.memcpys)
        copies.push_back({{"address", hex(m.address)}, {"bytes", m.bytes}, {"before_kernel", m.beforeKernel}});
    nlohmann::json byVersion = nlohmann::json::object();
    for (const auto& [version, c] : t.unknownOpcodesByVersion) byVersion[versionKey(version)] = counts(c);
    nlohmann::json substituted = nlohmann::json::object();
    for (const auto& [version, table] : t.substitutedVersions)
        substituted[versionKey(version)] = std::string(sassFamilyName(table.family));
    nlohmann::json warnings = nlohmann::json::array();
    addWarnings(t, warnings);
    return {{"memcpy_htod", copies},
            {"unknown_opcodes", counts(t.unknownOpcodes)},
            {"unknown_opcodes_by_binary_version", byVersion},
            {"unknown_opcode_instructions", t.unknownInstructions},
            {"warps_without_exit", t.appendedExits},
            {"binary_versions_without_table", substituted},
            {"generic_ld_st",
             {{"global", t.genericGlobal},
              {"shared", t.genericShared},
              {"local", t.genericLocal},
              {"mixed_windows", t.genericMixedWindows},
              {"without_windows", t.genericWithoutWindows}}},
            {"read_only_loads",
             {{"constant", t.constantLoads},
              {"texture", t.textureLoads},
              {"constant_without_addresses", t.constantWithoutAddresses},
              {"texture_without_addresses", t.textureWithoutAddresses}}},
            {"warnings", warnings}};
}

void TraceWorkload::rethrowDeferredInputError() const {
    if (!state_->deferredError.empty()) throw InputError(state_->deferredError);
}

ArgumentWorkloadInfo traceWorkload() {
    ArgumentWorkloadInfo info;
    info.name = "trace";
    info.usage = "trace:DIR";
    info.description =
        "Accel-Sim SASS trace: runs DIR/kernelslist.g (tracer versions 3-6, .xz files too); everything "
        "after 'trace:' is the path";
    info.make = [](const std::string& path, uint64_t /*seed*/) -> std::unique_ptr<Workload> {
        if (path.empty()) throw InputError("--workload: trace: expected trace:DIR (a directory holding kernelslist.g)");
        return std::make_unique<TraceWorkload>(path);
    };
    return info;
}

} // namespace gpusim
