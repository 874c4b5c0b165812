// Warp-scheduling policies written in Python (docs/extending.md, "Python policies"): a policy
// plugin (scheduler/PolicyPlugin.hpp) that embeds Debian's Python interpreter. Its entry point
// starts the interpreter, lets gpusim._embedded import the classes named in $GPUSIM_PYTHON_POLICIES
// (subclasses of gpusim.Policy) and registers each under its `name`, with the parameters of its
// `params`; each SM's policy is an instance of the class, whose hooks PythonPolicy calls. A hook
// the class does not override is never called (no cost). Like every plugin it links no gpusim
// library: the program that loads it (the gpusim executable) provides gpusim.
//
// The interpreter lives until the process ends (never finalised: policy objects may outlive any
// point at which that would be safe). The simulation runs on the thread that loaded the plugin, so
// the GIL stays with it.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "scheduler/PolicyPlugin.hpp"

namespace py = pybind11;

namespace {

using namespace gpusim;

// A Python exception from a hook: the policy and the hook named, with the exception's line; the
// full traceback goes to stderr. Raised during the simulation it ends the run as a model error
// (exit status 3: the Gpu reports what is thrown inside the simulation so), from the constructor
// (__init__, before the simulation) as an input error (exit status 2).
template <class Error = ModelError>
[[noreturn]] void rethrow(py::error_already_set& e, const std::string& policy, const char* hook) {
    const std::string what = e.what();
    e.restore();
    PyErr_Print();
    throw Error("python policy '" + policy + "': " + hook + ": " + what.substr(0, what.find('\n')));
}

// Statistics a policy registers in registerStats(stats): stats.counter(name, description).
struct PyStats {
    StatRegistry* stats;
    std::string prefix;
};

class PythonPolicy final : public SchedulerPolicy {
public:
    PythonPolicy(std::string name, py::object obj, bool idle) : name_(std::move(name)), obj_(std::move(obj)), idle_(idle) {
        py::object base = py::module_::import("gpusim").attr("Policy");
        py::object cls = py::type::of(obj_);
        // Bound methods of the hooks the class overrides; the others stay empty and are skipped.
        auto hook = [&](const char* n) -> py::object {
            if (cls.attr(n).is(base.attr(n))) return py::object();
            return obj_.attr(n);
        };
        order_ = hook("order");
        canIssue_ = hook("canIssue");
        attach_ = hook("attach");
        registerStats_ = hook("registerStats");
        onCycle_ = hook("onCycle");
        onIssue_ = hook("onIssue");
        onL1Access_ = hook("onL1Access");
        onL1Evict_ = hook("onL1Evict");
        onMshrAlloc_ = hook("onMshrAlloc");
        onMshrFree_ = hook("onMshrFree");
        onLoadServiced_ = hook("onLoadServiced");
        onLoadComplete_ = hook("onLoadComplete");
        onBarrierArrive_ = hook("onBarrierArrive");
        onBarrierRelease_ = hook("onBarrierRelease");
        onWarpStart_ = hook("onWarpStart");
        onWarpEnd_ = hook("onWarpEnd");
        onCtaStart_ = hook("onCtaStart");
        onCtaEnd_ = hook("onCtaEnd");
        onKernelStart_ = hook("onKernelStart");
        onKernelEnd_ = hook("onKernelEnd");
    }
    ~PythonPolicy() override {
        // Policies are destroyed with their GPU, before the process ends: the interpreter is alive.
        py::gil_scoped_acquire gil;
        obj_ = py::object();
    }

    std::string name() const override { return name_; }
    bool idleWhileStalled() const override { return idle_; }

    void attach(const SmView& sm) override {
        if (attach_) call(attach_, "attach", view(sm));
    }
    void registerStats(StatRegistry& stats, const std::string& prefix) override {
        if (registerStats_) call(registerStats_, "registerStats", PyStats{&stats, prefix});
    }

    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override {
        if (!order_) return;
        py::list in(warps.size());
        for (size_t i = 0; i < warps.size(); ++i) in[i] = py::int_(warps[i]);
        py::object out;
        try {
            out = order_(sched, in, view(sm));
        } catch (py::error_already_set& e) {
            rethrow(e, name_, "order");
        }
        // None: the list was reordered in place. Otherwise a permutation of the warps given.
        py::list result = out.is_none() ? in : py::list(out);
        if (result.size() != warps.size())
            throw ModelError("python policy '" + name_ + "': order returned " + std::to_string(result.size()) +
                             " warps, expected a permutation of the " + std::to_string(warps.size()) + " given");
        uint64_t seen[4] = {0, 0, 0, 0};  // warp slots up to 256
        for (unsigned w : warps)
            if (w < 256) seen[w / 64] |= uint64_t{1} << (w % 64);
        for (size_t i = 0; i < warps.size(); ++i) {
            const unsigned w = result[i].cast<unsigned>();
            if (w >= 256 || !(seen[w / 64] & (uint64_t{1} << (w % 64))))
                throw ModelError("python policy '" + name_ + "': order returned warp " + std::to_string(w) +
                                 ", not one of those given (or given twice)");
            seen[w / 64] &= ~(uint64_t{1} << (w % 64));
            warps[i] = w;
        }
    }
    bool canIssue(unsigned warp, const SmView& sm) override {
        if (!canIssue_) return true;
        try {
            return canIssue_(warp, view(sm)).cast<bool>();
        } catch (py::error_already_set& e) {
            rethrow(e, name_, "canIssue");
        }
    }

    void onCycle(uint64_t cycle, const SmView& sm) override {
        if (onCycle_) call(onCycle_, "onCycle", cycle, view(sm));
    }
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override {
        if (onIssue_) call(onIssue_, "onIssue", sched, warp, view(sm));
    }
    void onL1Access(const L1AccessEvent& e) override {
        if (onL1Access_) call(onL1Access_, "onL1Access", e);
    }
    void onL1Evict(uint64_t lineAddr, int ownerWarp) override {
        if (onL1Evict_) call(onL1Evict_, "onL1Evict", lineAddr, ownerWarp);
    }
    void onMshrAlloc(uint64_t lineAddr) override {
        if (onMshrAlloc_) call(onMshrAlloc_, "onMshrAlloc", lineAddr);
    }
    void onMshrFree(uint64_t lineAddr) override {
        if (onMshrFree_) call(onMshrFree_, "onMshrFree", lineAddr);
    }
    void onLoadServiced(const LoadServicedEvent& e) override {
        if (onLoadServiced_) call(onLoadServiced_, "onLoadServiced", e);
    }
    void onLoadComplete(unsigned warp, uint64_t pc, bool fullyCached, unsigned accesses) override {
        if (onLoadComplete_) call(onLoadComplete_, "onLoadComplete", warp, pc, fullyCached, accesses);
    }
    void onBarrierArrive(unsigned warp) override {
        if (onBarrierArrive_) call(onBarrierArrive_, "onBarrierArrive", warp);
    }
    void onBarrierRelease(unsigned ctaSlot) override {
        if (onBarrierRelease_) call(onBarrierRelease_, "onBarrierRelease", ctaSlot);
    }
    void onWarpStart(unsigned warp) override {
        if (onWarpStart_) call(onWarpStart_, "onWarpStart", warp);
    }
    void onWarpEnd(unsigned warp) override {
        if (onWarpEnd_) call(onWarpEnd_, "onWarpEnd", warp);
    }
    void onCtaStart(unsigned ctaSlot) override {
        if (onCtaStart_) call(onCtaStart_, "onCtaStart", ctaSlot);
    }
    void onCtaEnd(unsigned ctaSlot) override {
        if (onCtaEnd_) call(onCtaEnd_, "onCtaEnd", ctaSlot);
    }
    void onKernelStart() override {
        if (onKernelStart_) call(onKernelStart_, "onKernelStart");
    }
    void onKernelEnd() override {
        if (onKernelEnd_) call(onKernelEnd_, "onKernelEnd");
    }

private:
    template <class... A>
    void call(const py::object& f, const char* hook, A&&... a) {
        try {
            f(std::forward<A>(a)...);
        } catch (py::error_already_set& e) {
            rethrow(e, name_, hook);
        }
    }
    // The Python wrapper of the SM's view: made once (an SM hands its policy the same view).
    const py::object& view(const SmView& sm) {
        if (&sm != viewOf_) {
            view_ = py::cast(&sm, py::return_value_policy::reference);
            viewOf_ = &sm;
        }
        return view_;
    }

    std::string name_;
    py::object obj_;
    bool idle_;
    const SmView* viewOf_ = nullptr;
    py::object view_;
    py::object order_, canIssue_, attach_, registerStats_, onCycle_, onIssue_, onL1Access_, onL1Evict_,
        onMshrAlloc_, onMshrFree_, onLoadServiced_, onLoadComplete_, onBarrierArrive_, onBarrierRelease_,
        onWarpStart_, onWarpEnd_, onCtaStart_, onCtaEnd_, onKernelStart_, onKernelEnd_;
};

} // namespace

// The types the hooks see, in the embedded module gpusim_native (imported by gpusim._embedded).
// Names follow the C++ ones (scheduler/SmView.hpp, SchedulerPolicy.hpp), so a policy reads alike
// in both languages.
PYBIND11_EMBEDDED_MODULE(gpusim_native, m) {
    py::class_<WarpView>(m, "WarpView")
        .def_readonly("valid", &WarpView::valid)
        .def_readonly("age", &WarpView::age)
        .def_readonly("ctaSlot", &WarpView::ctaSlot)
        .def_readonly("ctaId", &WarpView::ctaId)
        .def_readonly("hasInstruction", &WarpView::hasInstruction)
        .def_readonly("nextIsLoad", &WarpView::nextIsLoad)
        .def_readonly("nextIsStore", &WarpView::nextIsStore)
        .def_readonly("nextPc", &WarpView::nextPc)
        .def_readonly("nextActiveLanes", &WarpView::nextActiveLanes)
        .def_readonly("atBarrier", &WarpView::atBarrier)
        .def_readonly("exited", &WarpView::exited)
        .def_readonly("issued", &WarpView::issued)
        .def_readonly("pendingLoads", &WarpView::pendingLoads)
        .def_readonly("issueStalls", &WarpView::issueStalls);
    py::class_<SmView>(m, "SmView")
        .def("smId", &SmView::smId)
        .def("warpSlots", &SmView::warpSlots)
        .def("warp", &SmView::warp, py::return_value_policy::reference_internal)
        .def("schedulers", &SmView::schedulers)
        .def("l1Sets", &SmView::l1Sets)
        .def("l1LineBytes", &SmView::l1LineBytes)
        .def("mshrEntries", &SmView::mshrEntries)
        .def("mshrFree", &SmView::mshrFree)
        .def("mshrUsed", &SmView::mshrUsed)
        .def("missQueueEntries", &SmView::missQueueEntries)
        .def("missQueueFree", &SmView::missQueueFree)
        .def("loadsInFlight", &SmView::loadsInFlight)
        .def("ldstBusy", &SmView::ldstBusy)
        .def("cycle", &SmView::cycle)
        .def("warpSetVersion", &SmView::warpSetVersion)
        .def("schedulerSetVersion", &SmView::schedulerSetVersion);
    py::class_<L1AccessEvent>(m, "L1AccessEvent")
        .def_readonly("warp", &L1AccessEvent::warp)
        .def_readonly("pc", &L1AccessEvent::pc)
        .def_readonly("lineAddr", &L1AccessEvent::lineAddr)
        .def_readonly("hit", &L1AccessEvent::hit)
        .def_readonly("merged", &L1AccessEvent::merged)
        .def_readonly("isWrite", &L1AccessEvent::isWrite)
        .def_readonly("reusePredicted", &L1AccessEvent::reusePredicted);
    py::class_<LoadServicedEvent>(m, "LoadServicedEvent")
        .def_readonly("warp", &LoadServicedEvent::warp)
        .def_readonly("pc", &LoadServicedEvent::pc)
        .def_readonly("activeLanes", &LoadServicedEvent::activeLanes)
        .def_readonly("accesses", &LoadServicedEvent::accesses)
        .def_readonly("setsTouched", &LoadServicedEvent::setsTouched)
        .def_readonly("fullyCached", &LoadServicedEvent::fullyCached);
    py::class_<Counter>(m, "Counter")
        .def("inc", &Counter::inc, py::arg("n") = 1)
        .def_property_readonly("value", &Counter::get);
    py::class_<PyStats>(m, "Stats")
        .def_readonly("prefix", &PyStats::prefix)
        .def(
            "counter",
            [](PyStats& s, const std::string& name, const std::string& desc) -> Counter& {
                return s.stats->counter(s.prefix + name, desc);
            },
            py::arg("name"), py::arg("description") = "", py::return_value_policy::reference);
}

GPUSIM_POLICY_PLUGIN(registrar) {
    // No signal handlers: SIGINT must stop the run as it stops any gpusim run (a sweep relies on it).
    if (!Py_IsInitialized()) py::initialize_interpreter(false);
    try {
        py::module_::import("gpusim_native");  // registers the view and event types
        py::object classes = py::module_::import("gpusim._embedded").attr("policy_classes")();
        for (py::handle cls : classes) {
            const auto name = cls.attr("name").cast<std::string>();
            PolicyInfo info;
            info.name = name;
            info.description = py::module_::import("gpusim._embedded").attr("description")(cls).cast<std::string>();
            for (py::handle p : py::module_::import("gpusim._embedded").attr("params")(cls)) {
                PolicyParam q;
                q.name = p.attr("name").cast<std::string>();
                q.defaultValue = p.attr("default").cast<double>();
                q.min = p.attr("min").cast<double>();
                q.max = p.attr("max").cast<double>();
                q.integer = p.attr("integer").cast<bool>();
                q.description = p.attr("description").cast<std::string>();
                info.params.push_back(std::move(q));
            }
            const bool idle = py::bool_(cls.attr("idleWhileStalled"));
            py::object c = py::reinterpret_borrow<py::object>(cls);
            info.make = [name, c, idle](const std::map<std::string, double>& p) -> std::unique_ptr<SchedulerPolicy> {
                py::dict kw;
                for (const auto& [k, v] : p) kw[py::str(k)] = py::float_(v);
                try {
                    py::object obj = py::module_::import("gpusim._embedded").attr("instantiate")(c, kw);
                    return std::make_unique<PythonPolicy>(name, std::move(obj), idle);
                } catch (py::error_already_set& e) {
                    rethrow<InputError>(e, name, "__init__");
                }
            };
            registrar.add(std::move(info));
        }
    } catch (py::error_already_set& e) {
        const std::string what = e.what();
        e.restore();
        PyErr_Print();
        throw InputError("$GPUSIM_PYTHON_POLICIES: " + what.substr(0, what.find('\n')));
    }
}
