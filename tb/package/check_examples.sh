#!/bin/sh
# The installed CMake package and the co-simulation examples (docs/cosimulation.md), as a user
# gets them: install this build into a fresh prefix, check the installed command line and the
# exported CMake files, then configure, build and run every examples/* project out of tree
# against the prefix. Any failure fails the test. ctest runs it as package_examples (integration).
#   check_examples.sh BUILD_DIR SOURCE_DIR [CMAKE]
set -eu
build=$1
src=$2
cmake=${3:-cmake}
work=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
# The lookups under test must not be satisfied by a user setting.
unset GPUSIM_PLATFORM_DIR
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

step() { echo "== $*"; }
fail() { echo "check_examples: $*" >&2; exit 1; }

step "install $build into $prefix"
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
for f in lib/cmake/gpusim/gpusimConfig.cmake lib/cmake/gpusim/gpusimTargets.cmake \
         include/gpusim/platforms/Gpu.hpp include/gpusim/platforms/ControlTarget.hpp \
         include/gpusim/common/AtPorts.hpp include/gpusim/scheduler/PolicyPlugin.hpp \
         include/gpusim/scheduler/PluginVersion.hpp share/gpusim/platforms/fermi15.json bin/gpusim; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
# A relocatable package names no build or source directory.
if grep -rl -e "$src" -e "$build" "$prefix/lib/cmake"; then fail "build-tree path in the installed CMake files"; fi

step "installed gpusim finds its platform files"
"$prefix/bin/gpusim" list platforms > "$work/platforms.txt"
grep -q '^fermi15 ' "$work/platforms.txt" || fail "installed gpusim does not list fermi15"

step "installed gpusim validate and correlate find share/gpusim/validation from another directory"
(cd "$work" && "$prefix/bin/gpusim" validate --only nosuch) > "$work/validate.txt" 2>&1 && fail "validate --only nosuch passed"
grep -q "is not a study of $prefix/share/gpusim/validation/studies.json" "$work/validate.txt" ||
    { cat "$work/validate.txt"; fail "installed validate did not read the installed studies"; }
(cd "$work" && "$prefix/bin/gpusim" correlate --only nosuch) > "$work/correlate.txt" 2>&1 && fail "correlate --only nosuch passed"
grep -q "is not a workload of $prefix/share/gpusim/validation/accelsim/accelsim-gtx480.json" "$work/correlate.txt" ||
    { cat "$work/correlate.txt"; fail "installed correlate did not read the installed reference"; }

for ex in custom-dram host-launch custom-policy; do
    step "configure and build examples/$ex against the package"
    "$cmake" -S "$src/examples/$ex" -B "$work/$ex" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_BUILD_TYPE=Release >/dev/null
    "$cmake" --build "$work/$ex" -j2 >/dev/null
done

step "run custom_dram"
# (to a file, not through a pipe: sh has no pipefail, a pipe would hide the exit status)
timeout 300 "$work/custom-dram/custom_dram" > "$work/custom.txt" || { cat "$work/custom.txt"; fail "custom_dram failed"; }
cat "$work/custom.txt"
grep -q "($prefix/share/gpusim/platforms/fermi15.json)" "$work/custom.txt" ||
    fail "custom_dram did not read fermi15 from the installed share directory"

step "run custom_dram on a workload that writes back dirty L2 lines"
timeout 300 "$work/custom-dram/custom_dram" vectoradd:n=262144 > "$work/custom-wb.txt" ||
    { cat "$work/custom-wb.txt"; fail "custom_dram (write-backs) failed"; }
cat "$work/custom-wb.txt"
grep -q "write-backs [1-9]" "$work/custom-wb.txt" || fail "custom_dram: vectoradd:n=262144 wrote nothing back"

step "run host_launch"
timeout 300 "$work/host-launch/host_launch" > "$work/host.txt" || { cat "$work/host.txt"; fail "host_launch failed"; }
cat "$work/host.txt"
[ "$(grep -c ' done ' "$work/host.txt")" = 3 ] || fail "host_launch: expected 3 finished launches"
plugin=$work/custom-policy/liboldest_cta.so
step "installed gpusim lists the custom-policy plugin's scheduler"
"$prefix/bin/gpusim" list schedulers --plugin "$plugin" > "$work/schedulers.txt"
grep -q "^oldest-cta .*(plugin $plugin)" "$work/schedulers.txt" || { cat "$work/schedulers.txt"; fail "oldest-cta not listed"; }

step "installed gpusim runs oldest-cta from the plugin"
timeout 300 "$prefix/bin/gpusim" run --plugin "$plugin" --scheduler oldest-cta:load_budget=1 --workload atax:n=128 \
    --stats "$work/policy.json" > "$work/policy.txt" || { cat "$work/policy.txt"; fail "gpusim run --plugin failed"; }
cat "$work/policy.txt"
grep -q '"name": "oldest-cta"' "$work/policy.json" || fail "the run's --stats do not name oldest-cta"
grep -q '"sm0.sched.budget_blocked": [1-9]' "$work/policy.json" || fail "oldest-cta's load budget held nothing back"

step "run custom_policy_check (co-simulation API: issue order on a hand-built SM, then a GPU run)"
timeout 300 "$work/custom-policy/custom_policy_check" "$plugin" > "$work/check.txt" ||
    { cat "$work/check.txt"; fail "custom_policy_check failed"; }
cat "$work/check.txt"
if [ -e "$prefix/lib/gpusim/libgpusim_python.so" ]; then
    step "the installed Python module: import from the prefix, run built-in and Python policies"
    # From an empty directory with only the prefix on PYTHONPATH (no source tree, no build tree).
    (cd "$work" && env -u GPUSIM_BUILD_DIR -u GPUSIM_EXECUTABLE \
        PYTHONPATH="$prefix/lib/python3/dist-packages:$src/examples/python" timeout 300 /usr/bin/python3 -c "
import gpusim, lrr_policy
assert gpusim.executable() == '$prefix/bin/gpusim', gpusim.executable()
a = gpusim.run(scheduler='lrr', workload='atax:n=64')
b = gpusim.run(scheduler=lrr_policy.PyLrr, workload='atax:n=64')
assert a.summary == b.summary, (a.summary, b.summary)
print('installed gpusim module: ipc', a.summary['ipc'], 'for lrr and py-lrr')
") || fail "the installed Python module"
fi
echo "check_examples: all passed"
