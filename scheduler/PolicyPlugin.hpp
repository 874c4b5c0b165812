#pragma once
// Warp-scheduling policies from a shared library (docs/extending.md). A plugin is a shared
// library built against the installed package (`find_package(gpusim)`, target gpusim::plugin)
// that defines its entry point with GPUSIM_POLICY_PLUGIN:
//
//     #include "scheduler/PolicyPlugin.hpp"
//     GPUSIM_POLICY_PLUGIN(registrar) {
//         registrar.add({"my-policy", "what it does", {intParam("k", 2, 1, 8, "...")},
//                        [](const auto& p) { return std::make_unique<MyPolicy>(p.at("k")); }});
//     }
//
// The macro exports two C symbols: `gpusim_plugin_abi` (the gpusim version and plugin ABI number
// the plugin was compiled against, from scheduler/PluginVersion.hpp) and `gpusim_plugin_register`
// (the function body that follows). loadPolicyPlugin() opens the library, compares the version
// and ABI with its own before calling anything in it, then lets it register its policies.
#include <string>
#include <vector>

#include "scheduler/PluginVersion.hpp"
#include "scheduler/PolicyRegistry.hpp"

extern "C" {
// What a plugin was built against. Only these two fields are read before the check passes, and
// their layout never changes.
struct gpusim_plugin_abi_info {
    unsigned abi;         // GPUSIM_PLUGIN_ABI
    const char* version;  // GPUSIM_VERSION_STRING
};
}

namespace gpusim {

// Handed to a plugin's entry point. Everything goes through virtual calls, so a plugin needs no
// symbol of the program for registering. add() may throw InputError (a bad name or range).
class PluginRegistrar {
public:
    // Registers a policy under info.name (info.origin is set by the loader).
    virtual void add(PolicyInfo info) = 0;
    // The loading program's gpusim version (equal to the plugin's, or it would not be called).
    virtual const char* hostVersion() const = 0;

protected:
    ~PluginRegistrar() = default;
};

// Loads the plugin at `path` and adds its policies to PolicyRegistry::process(). Throws
// InputError naming the path when the file cannot be loaded, is not a gpusim plugin, was built
// against another gpusim version or plugin ABI (both versions named), registers nothing, or
// registers a name that is taken (both origins named). Nothing is registered when it throws.
// Loading the same file again does nothing. Returns the names the plugin registered. The library
// stays loaded until the process ends. `what` prefixes the messages ("--plugin").
std::vector<std::string> loadPolicyPlugin(const std::string& path, const std::string& what = "--plugin");

// The plugins loaded so far (absolute paths, in load order).
std::vector<std::string> loadedPolicyPlugins();

} // namespace gpusim

// The plugin's entry point: GPUSIM_POLICY_PLUGIN(r) { r.add(...); }
#define GPUSIM_POLICY_PLUGIN(registrar)                                                               \
    extern "C" __attribute__((visibility("default"))) const gpusim_plugin_abi_info gpusim_plugin_abi = { \
        GPUSIM_PLUGIN_ABI, GPUSIM_VERSION_STRING};                                                    \
    static void gpusimPluginRegisterBody(gpusim::PluginRegistrar& registrar);                          \
    extern "C" __attribute__((visibility("default"))) void gpusim_plugin_register(                    \
        gpusim::PluginRegistrar& r) {                                                                 \
        gpusimPluginRegisterBody(r);                                                                  \
    }                                                                                                 \
    static void gpusimPluginRegisterBody(gpusim::PluginRegistrar& registrar)
