#pragma once
// What the configuration-loader fuzz target does with one input, shared with the regression
// replay in tb/unit/workloads/trace_fuzz_regression_test.cpp.
//
// The input is written as a platform file "fuzz.json" in a scratch folder that also holds a
// valid "base.json" (so "base": "base" derives, and "base": "fuzz" is a cycle) and loaded with
// Config::loadFile against a small schema with one parameter of each type and a cross-parameter
// check; then each of the input's first lines is applied as a --set assignment, and the result
// validated. InputError is the expected outcome for bad input; anything else is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "common/Config.hpp"
#include "common/SimError.hpp"

namespace gpusim::fuzz {

inline const ParamSchema& fuzzSchema() {
    static const ParamSchema schema = [] {
        ParamSchema s;
        s.addInt("cache.sets", 64, "", 1, 65536, "sets")
            .addInt("cache.ways", 8, "", 1, 64, "ways")
            .addDouble("clock.mhz", 1400.0, "MHz", 1.0, 10000.0, "clock")
            .addBool("cache.enabled", true, "on/off")
            .addEnum("cache.policy", "lru", {"lru", "fifo", "random"}, "replacement")
            .addString("name.tag", "x", "free text")
            .addCheck([](const Config& c) {
                if (c.getInt("cache.sets") * c.getInt("cache.ways") > 65536)
                    c.fail("cache.ways", "sets x ways exceeds 65536");
            });
        return s;
    }();
    return schema;
}

// Created once per process, removed when the process exits.
class FuzzDir {
public:
    FuzzDir() {
        std::string templ = (std::filesystem::temp_directory_path() / "gpusim-fuzz-XXXXXX").string();
        if (!::mkdtemp(templ.data())) std::abort();
        path_ = templ;
        std::ofstream(path_ / "base.json")
            << "{\"name\": \"base\", \"params\": {\"cache\": {\"sets\": 32, \"policy\": \"fifo\"}}}\n";
    }
    ~FuzzDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline const std::filesystem::path& fuzzDir() {
    static const FuzzDir dir;
    return dir.path();
}

inline void runConfigLoader(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::filesystem::path file = fuzzDir() / "fuzz.json";
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    Config cfg(fuzzSchema());
    try {
        cfg.loadFile(file.string());
    } catch (const InputError&) {
    }
    size_t pos = 0;
    for (unsigned n = 0; n < 8 && pos < bytes.size(); ++n) {
        const size_t nl = bytes.find('\n', pos);
        const std::string line(bytes.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
        pos = nl == std::string_view::npos ? bytes.size() : nl + 1;
        try {
            cfg.setFromString(line);
        } catch (const InputError&) {
        }
    }
    try {
        cfg.validate();
    } catch (const InputError&) {
    }
    cfg.toJson();
}

} // namespace gpusim::fuzz
