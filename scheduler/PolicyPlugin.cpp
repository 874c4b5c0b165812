#include "scheduler/PolicyPlugin.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <map>

#include "common/SimError.hpp"

namespace gpusim {

namespace {

namespace fs = std::filesystem;

using RegisterFn = void (*)(PluginRegistrar&);

// Collects a plugin's policies; the registry sees them only once the entry point has returned.
class CollectingRegistrar final : public PluginRegistrar {
public:
    void add(PolicyInfo info) override { infos.push_back(std::move(info)); }
    const char* hostVersion() const override { return GPUSIM_VERSION_STRING; }
    std::vector<PolicyInfo> infos;
};

struct Loaded {
    std::string path;
    std::vector<std::string> names;
};

std::vector<Loaded>& loaded() {
    static std::vector<Loaded> l;
    return l;
}

std::string dlText() {
    const char* e = dlerror();
    return e ? e : "unknown error";
}

std::string versionText(unsigned abi, const std::string& version) {
    return "gpusim " + version + " (plugin ABI " + std::to_string(abi) + ")";
}

// The refusal when the plugin's recorded versions differ from ours; "" when they agree.
std::string mismatch(const gpusim_plugin_abi_info& info) {
    const std::string theirs = info.version ? info.version : "?";
    if (info.abi == GPUSIM_PLUGIN_ABI && theirs == GPUSIM_VERSION_STRING) return "";
    return "built against " + versionText(info.abi, theirs) + ", this is " +
           versionText(GPUSIM_PLUGIN_ABI, GPUSIM_VERSION_STRING) + ": rebuild it against this gpusim's package";
}

} // namespace

std::vector<std::string> loadPolicyPlugin(const std::string& given, const std::string& what) {
    const std::string pre = what + ": " + given + ": ";
    std::error_code ec;
    if (given.empty()) throw InputError(what + ": expected the path of a plugin (a shared library)");
    if (!fs::exists(given, ec)) throw InputError(pre + "no such file");
    if (!fs::is_regular_file(given, ec)) throw InputError(pre + "not a file");
    // An absolute path: dlopen looks a name without '/' up in the library path, not here.
    const std::string path = fs::canonical(given, ec).string();
    for (const auto& l : loaded())
        if (l.path == path) return l.names;

    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        std::string err = dlText();
        // A plugin of another version may need symbols this program lacks: read its recorded
        // version without resolving them, so the message says why.
        if (void* lazy = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL)) {
            if (auto* info = static_cast<const gpusim_plugin_abi_info*>(dlsym(lazy, "gpusim_plugin_abi"))) {
                const std::string m = mismatch(*info);
                if (!m.empty()) throw InputError(pre + m);
            }
        }
        if (err.find("undefined symbol: _ZN6gpusim") != std::string::npos)
            err += " (the program loading a plugin must export gpusim's symbols: link it with ENABLE_EXPORTS / "
                   "-rdynamic, docs/extending.md)";
        throw InputError(pre + "cannot load: " + err);
    }
    dlerror();
    auto* info = static_cast<const gpusim_plugin_abi_info*>(dlsym(h, "gpusim_plugin_abi"));
    if (!info)
        throw InputError(pre + "not a gpusim plugin (no gpusim_plugin_abi symbol: define the entry point with "
                               "GPUSIM_POLICY_PLUGIN, docs/extending.md)");
    if (const std::string m = mismatch(*info); !m.empty()) throw InputError(pre + m);
    auto fn = reinterpret_cast<RegisterFn>(dlsym(h, "gpusim_plugin_register"));
    if (!fn) throw InputError(pre + "not a gpusim plugin (no gpusim_plugin_register function)");

    CollectingRegistrar reg;
    try {
        fn(reg);
    } catch (const InputError& e) {
        throw InputError(pre + e.what());
    } catch (const std::exception& e) {
        throw InputError(pre + "registration failed: " + e.what());
    }
    if (reg.infos.empty()) throw InputError(pre + "registers no scheduler policy");

    // Every name checked before any is added: a refused plugin leaves the registry as it was.
    PolicyRegistry trial;
    PolicyRegistry& process = PolicyRegistry::process();
    Loaded rec{path, {}};
    for (auto& i : reg.infos) {
        i.origin = path;
        try {
            if (const PolicyInfo* old = process.find(i.name)) {
                PolicyRegistry one;
                one.add(*old);
                one.add(i);  // throws, naming both
            }
            trial.add(i);  // the plugin's own checks, and a name given twice by the plugin
        } catch (const InputError& e) {
            throw InputError(what + ": " + e.what());
        }
        rec.names.push_back(i.name);
    }
    for (auto& i : reg.infos) process.add(std::move(i));
    loaded().push_back(rec);
    return rec.names;
}

std::vector<std::string> loadedPolicyPlugins() {
    std::vector<std::string> out;
    for (const auto& l : loaded()) out.push_back(l.path);
    return out;
}

} // namespace gpusim
