"""Tests of the Python module gpusim (docs/extending.md, "Python"). ctest python_module runs them
with Debian's python3, PYTHONPATH = the source tree and examples/python, GPUSIM_BUILD_DIR = the
build; by hand: PYTHONPATH=.:examples/python GPUSIM_BUILD_DIR=build python3 -m unittest discover -s tb/python"""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

import gpusim
import lrr_policy
import policies_for_test as pt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("GPUSIM_BUILD_DIR", os.path.join(ROOT, "build"))
SMALL = "atax:n=64"


def read(path):
    with open(path) as f:
        return f.read()


def same_except_host(a, b):
    """Keys whose values differ between two runs' --stats documents, ignoring host time and the
    scheduler's name."""
    fa, fb = a.flat(), b.flat()
    return sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k))


class Run(unittest.TestCase):
    def test_time_series_and_kernel_stats_as_data_frames(self):
        r = gpusim.run(workload=SMALL, sample_interval=500)
        ts = r.time_series()
        # Rows at 500, 1000, ... and the last cycle; the intervals' instructions add up to the run's.
        cycles = list(ts["cycle"])
        self.assertEqual(cycles[:2], [500.0, 1000.0])
        self.assertEqual(cycles[-1], r.summary["cycles"])
        self.assertEqual(len(cycles), -(-r.summary["cycles"] // 500))
        lengths = [c - p for p, c in zip([0.0] + cycles[:-1], cycles)]
        self.assertAlmostEqual(sum(ts["ipc"] * lengths), r.summary["warp_instructions"], places=6)
        self.assertIn("sm14.active_warps", ts.columns)
        self.assertEqual(ts.attrs["interval_cycles"], 500)
        ks = r.kernel_stats()
        self.assertEqual(list(ks["name"]), [k["name"] for k in r.kernels])
        # atax's two kernels run one after the other: their instructions are all the run's.
        self.assertEqual(ks["sm*.issued"].sum(), r.summary["warp_instructions"])
        self.assertEqual(r.units["sm0.ldst.load_latency"], "core cycles")
        self.assertEqual(r.descriptions["sm0.issued"], "Warp instructions issued")
        with self.assertRaises(ValueError):
            gpusim.run(workload=SMALL).time_series()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.json")
            with open(path, "w") as f:
                json.dump(r.data, f)
            self.assertEqual(gpusim.load(path).summary, r.summary)

    def test_summary_and_every_statistic(self):
        r = gpusim.run(platform="fermi15", scheduler="lrr", workload=SMALL, set={"l1d.ways": 4}, seed=3)
        self.assertGreater(r.summary["ipc"], 0)
        self.assertGreater(r.summary["cycles"], 0)
        self.assertGreater(r.stats["sm0.issued"], 0)
        self.assertEqual(r.config["l1d.ways"], 4)
        self.assertEqual(r.scheduler["name"], "lrr")
        self.assertEqual(r.seed, 3)
        self.assertIn("ldst_stalls.LDST_MSHR", r.flat())
        s = r.to_pandas()
        self.assertEqual(s["ipc"], r.summary["ipc"])
        self.assertEqual(s["sm0.issued"], r.stats["sm0.issued"])

    def test_deterministic(self):
        a, b = gpusim.run(workload=SMALL), gpusim.run(workload=SMALL)
        self.assertEqual(same_except_host(a, b), [])

    def test_bad_input_raises_with_the_message(self):
        with self.assertRaises(gpusim.GpusimError) as e:
            gpusim.run(workload="nosuch")
        self.assertEqual(e.exception.status, 2)
        self.assertIn("nosuch", str(e.exception))
        with self.assertRaises(gpusim.GpusimError) as e:
            gpusim.run(workload=SMALL, set={"l1d.mshr": 3})
        self.assertIn("l1d.mshr", str(e.exception))

    def test_the_issue_command_from_the_repository_root(self):
        # `python3 -c "import gpusim; ..."` in the root finds the package there ('' on sys.path).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = subprocess.run([sys.executable, "-c", "import gpusim; print(gpusim.run(workload='atax:n=64').summary['ipc'])"],
                             cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        self.assertGreater(float(out.stdout), 0)

    def test_the_build_trees_copy(self):
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GPUSIM_BUILD_DIR")}
        env["PYTHONPATH"] = os.path.join(BUILD, "python")
        out = subprocess.run([sys.executable, "-c", "import gpusim; print(gpusim.__file__); print(gpusim.executable()); "
                              "print(gpusim.plugin())"], cwd=tempfile.gettempdir(), env=env,
                             capture_output=True, text=True, check=True).stdout.split("\n")
        self.assertEqual(os.path.realpath(out[0]), os.path.realpath(os.path.join(BUILD, "python", "gpusim", "__init__.py")))
        self.assertEqual(os.path.realpath(out[1]), os.path.realpath(os.path.join(BUILD, "gpusim")))
        self.assertEqual(os.path.realpath(out[2]), os.path.realpath(os.path.join(BUILD, "python", "libgpusim_python.so")))


class Introspection(unittest.TestCase):
    def test_lists(self):
        self.assertIn("fermi15", [p["name"] for p in gpusim.platforms()])
        sched = {s["name"]: s for s in gpusim.schedulers()}
        self.assertEqual(sched["swl"]["params"][0]["name"], "warps")
        self.assertEqual(sched["lrr"]["origin"], "")
        wl = {w["name"]: w for w in gpusim.workloads()}
        self.assertEqual(wl["atax"]["params"][0]["name"], "n")
        self.assertEqual(wl["trace"]["usage"], "trace:DIR")

    def test_schema_with_units_and_ranges(self):
        s = gpusim.schema()
        self.assertEqual(s["dram.clock_mhz"]["unit"], "MHz")
        self.assertEqual(s["dram.clock_mhz"]["type"], "number")
        self.assertEqual((s["dram.banks"]["min"], s["dram.banks"]["max"]), (1, 64))
        self.assertEqual(s["addrmap.hash"]["choices"], ["none", "xor"])

    def test_python_policies_are_listed_with_their_parameters(self):
        sched = {s["name"]: s for s in gpusim.schedulers(policies=[pt.LoadBudget])}
        p = sched["py-budget"]
        self.assertIn("(Python)", p["description"])
        self.assertEqual(p["params"], [{"name": "budget", "default": 1, "min": 0, "max": 64, "integer": True,
                                        "description": "loads in flight a warp may have (0: no limit)"}])


class Sweep(unittest.TestCase):
    def test_table(self):
        df = gpusim.sweep(schedulers=["lrr", "gto"], workloads=[SMALL, "bicg:n=64"], set={"l1d.mshr_entries": [32, 64]},
                          stats=["l1d_read_miss_rate"], jobs=2, progress=False)
        self.assertEqual(len(df), 8)
        self.assertEqual(list(df["status"].unique()), ["ok"])
        self.assertIn("l1d.mshr_entries", df.columns)
        self.assertIn("l1d_read_miss_rate", df.columns)
        one = gpusim.run(scheduler="gto", workload="bicg:n=64", set={"l1d.mshr_entries": 64})
        row = df[(df.scheduler == "gto") & (df.workload == "bicg:n=64") & (df["l1d.mshr_entries"] == 64)]
        self.assertEqual(int(row["cycles"].iloc[0]), one.summary["cycles"])

    def test_python_policy_in_a_sweep(self):
        df = gpusim.sweep(schedulers=["lrr", lrr_policy.PyLrr], workloads=[SMALL], jobs=2, progress=False)
        self.assertEqual(list(df["status"]), ["ok", "ok"])
        self.assertEqual(df["cycles"].iloc[0], df["cycles"].iloc[1])

    def test_slurm_submission_goes_through_gpusim_sweep(self):
        # A stand-in sbatch on PATH: the module hands the sweep to `gpusim sweep --slurm`.
        with tempfile.TemporaryDirectory() as tmp:
            sbatch = os.path.join(tmp, "sbatch")
            with open(sbatch, "w") as f:
                f.write("#!/bin/sh\necho \"$@\" > %s/args\necho 4242\n" % tmp)
            os.chmod(sbatch, stat.S_IRWXU)
            old = os.environ["PATH"]
            os.environ["PATH"] = tmp + os.pathsep + old
            try:
                out = gpusim.sweep(schedulers=["lrr", "gto"], workloads=[SMALL], out=os.path.join(tmp, "sw"),
                                   slurm=True, wait=False, partition="short", progress=False)
            finally:
                os.environ["PATH"] = old
            self.assertEqual(out, os.path.join(tmp, "sw"))
            script = read(os.path.join(out, "slurm", "array.sh"))
            self.assertIn("#SBATCH --array=0-1", script)
            self.assertIn("#SBATCH --partition=short", script)
            self.assertEqual(len(json.loads(read(os.path.join(out, "sweep.json")))["jobs"]), 2)


class PythonPolicies(unittest.TestCase):
    def test_python_lrr_issues_exactly_as_the_builtin(self):
        # Same statistics and the same issue events, warp by warp and cycle by cycle.
        with tempfile.TemporaryDirectory() as tmp:
            a = gpusim.run(scheduler="lrr", workload=SMALL, args=["--trace-warps", f"{tmp}/a.json"])
            b = gpusim.run(scheduler=lrr_policy.PyLrr, workload=SMALL, args=["--trace-warps", f"{tmp}/b.json"])
            self.assertEqual(same_except_host(a, b), [])
            self.assertEqual(b.scheduler["name"], "py-lrr")
            self.assertEqual(read(f"{tmp}/a.json"), read(f"{tmp}/b.json"))
        a = gpusim.run(platform="fermi30", scheduler="lrr", workload="bfs:nodes=1024")
        b = gpusim.run(platform="fermi30", scheduler=lrr_policy.PyLrr, workload="bfs:nodes=1024")
        self.assertEqual(same_except_host(a, b), [])

    def test_parameters_statistics_and_gate(self):
        r = gpusim.run(scheduler=(pt.LoadBudget, {"budget": 1}), workload=SMALL)
        self.assertEqual(r.scheduler["params"]["budget"], 1)
        self.assertGreater(r.stats["sm0.sched.blocked"], 0)
        r0 = gpusim.run(scheduler="py-budget:budget=0", policies=[pt.LoadBudget], workload=SMALL)
        self.assertEqual(r0.stats["sm0.sched.blocked"], 0)
        with self.assertRaises(gpusim.GpusimError) as e:
            gpusim.run(scheduler="py-budget:budget=99", policies=[pt.LoadBudget], workload=SMALL)
        self.assertEqual(e.exception.status, 2)
        self.assertIn("budget", str(e.exception))

    def test_an_exception_in_a_hook_names_the_policy_and_hook(self):
        with self.assertRaises(gpusim.GpusimError) as e:
            gpusim.run(scheduler=pt.Broken, workload=SMALL)
        self.assertEqual(e.exception.status, 3)  # raised inside the simulation: a model error
        self.assertIn("python policy 'py-broken': order: ValueError: deliberately broken", str(e.exception))
        self.assertIn("Traceback", e.exception.stderr)
        with self.assertRaises(gpusim.GpusimError) as e:
            gpusim.run(scheduler=pt.BadOrder, workload=SMALL)
        self.assertIn("expected a permutation", str(e.exception))

    def test_a_class_typed_at_a_prompt_runs_sent_by_value(self):
        # What a REPL or a notebook makes: a class whose module, __main__, has no file the gpusim
        # process could import (here: exec'd with __name__ "__main__", so not even an attribute
        # of the test runner's __main__). It is loose round-robin: exactly the built-in lrr's
        # statistics, and not those of the default gto, so its own code decided the issue order.
        source = (
            "import bisect\n"
            "class NotebookLrr(gpusim.Policy):\n"
            "    name = 'nb-lrr'\n"
            "    idleWhileStalled = True\n"
            "    def __init__(self, **params):\n"
            "        super().__init__(**params)\n"
            "        self.last = [-1, -1]\n"
            "    def order(self, sched, warps, sm):\n"
            "        warps.sort()\n"
            "        first = bisect.bisect_right(warps, self.last[sched])\n"
            "        return warps[first:] + warps[:first]\n"
            "    def onIssue(self, sched, warp, sm):\n"
            "        self.last[sched] = warp\n")
        ns = {"__name__": "__main__", "gpusim": gpusim}
        exec(source, ns)
        cls = ns["NotebookLrr"]
        self.assertIsNone(getattr(sys.modules["__main__"], "NotebookLrr", None))
        nb = gpusim.run(scheduler=cls, workload=SMALL)
        lrr, gto = gpusim.run(scheduler="lrr", workload=SMALL), gpusim.run(scheduler="gto", workload=SMALL)
        self.assertEqual(nb.scheduler["name"], "nb-lrr")
        self.assertEqual(same_except_host(nb, lrr), [])
        self.assertNotEqual(lrr.summary["cycles"], gto.summary["cycles"])

    def test_classes_in_a_module_without_a_file_and_local_classes_are_sent_by_value(self):
        import types

        mod = types.ModuleType("gpusim_test_cell")  # in sys.modules, but no file behind it
        sys.modules[mod.__name__] = mod
        try:
            exec("import gpusim\nclass Cell(gpusim.Policy):\n    name = 'cell'\n", mod.__dict__)
            r = gpusim.run(scheduler=mod.Cell, workload=SMALL)
            self.assertEqual(r.scheduler["name"], "cell")
        finally:
            del sys.modules[mod.__name__]

        class Local(gpusim.Policy):
            """keeps slot order"""
            name = "local"

        self.assertEqual(gpusim.run(scheduler=Local, workload=SMALL).scheduler["name"], "local")
        self.assertEqual(gpusim.run(scheduler=type("Anon", (gpusim.Policy,), {"name": "anon"}),
                                    workload=SMALL).scheduler["name"], "anon")

    def test_without_cloudpickle_the_error_says_what_to_install(self):
        saved = sys.modules.get("cloudpickle")
        sys.modules["cloudpickle"] = None  # import cloudpickle now raises ImportError
        try:
            with self.assertRaises(gpusim.GpusimError) as e:
                gpusim.run(scheduler=type("Anon", (gpusim.Policy,), {"name": "anon"}), workload=SMALL)
            self.assertIn("python3-cloudpickle", str(e.exception))
            self.assertIn("define it in a module or script", str(e.exception))
        finally:
            if saved is None:
                del sys.modules["cloudpickle"]
            else:
                sys.modules["cloudpickle"] = saved


class RunProgress(unittest.TestCase):
    LONG = "vectoradd:n=262144"  # 1024 CTAs of one kernel, about a second

    def test_the_line_parsed(self):
        line = ("[gpusim] 37.5 % done (90/240 CTAs), ETA 0:10, 1:02:05 elapsed; kernels 0/2 ended, running kernel0 "
                "(atax_kernel1) CTA 90/120; cycle 120000, IPC 3.000, 20000 cycles/s")
        p = gpusim._progress.parse(line)
        self.assertIsInstance(p, gpusim.Progress)
        self.assertEqual((p.percent, p.ctas_done, p.ctas_total, p.eta_seconds, p.elapsed_seconds), (37.5, 90, 240, 10, 3725))
        self.assertEqual((p.kernels_ended, p.kernels, p.cycle, p.ipc), (0, 2, 120000, 3.0))
        self.assertEqual(p.running, "kernel0 (atax_kernel1) CTA 90/120")
        self.assertIsNone(gpusim._progress.parse(line.replace("ETA 0:10", "ETA ?")).eta_seconds)
        self.assertIsNone(gpusim._progress.parse("gpusim: error: something"))

    def test_a_callback_sees_the_ctas_and_the_statistics_do_not_change(self):
        seen = []
        a = gpusim.run(workload=self.LONG, progress=seen.append, progress_interval=0.05)
        b = gpusim.run(workload=self.LONG)
        self.assertEqual(same_except_host(a, b), [])
        self.assertGreaterEqual(len(seen), 1)
        self.assertTrue(all(p.ctas_total == 1024 and 0 <= p.ctas_done <= 1024 for p in seen))
        cycles = [p.cycle for p in seen]
        self.assertEqual(cycles, sorted(set(cycles)))

    def test_true_draws_tqdm_or_copies_the_lines(self):
        import contextlib
        import io

        has_tqdm = _has("tqdm")
        for hide_tqdm in (False, True):
            saved = sys.modules.get("tqdm")
            if hide_tqdm:
                sys.modules["tqdm"] = None
            err = io.StringIO()
            try:
                with contextlib.redirect_stderr(err):
                    gpusim.run(workload=self.LONG, progress=True, progress_interval=0.05)
            finally:
                if hide_tqdm:
                    if saved is None:
                        del sys.modules["tqdm"]
                    else:
                        sys.modules["tqdm"] = saved
            if hide_tqdm or not has_tqdm:
                self.assertRegex(err.getvalue(), r"\[gpusim\] [0-9.]+ % done \([0-9]+/1024 CTAs\)")
            else:
                self.assertRegex(err.getvalue(), r"gpusim: .*[0-9]+/1024")
                self.assertIn("CTA", err.getvalue())


def _has(module):
    import importlib.util

    return importlib.util.find_spec(module) is not None


if __name__ == "__main__":
    unittest.main()
