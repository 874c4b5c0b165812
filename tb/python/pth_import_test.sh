#!/bin/sh
# `import gpusim` from any directory after the README's setup: python/install_pth.sh (what
# setup.sh runs) writes its .pth file into the user site directory of a scratch HOME, then Debian's
# python3 (and the python3 first on PATH, when it is another interpreter of the same minor version)
# imports gpusim from a scratch directory, without PYTHONPATH, finds this build's executable and
# runs a small simulation.
#   tb/python/pth_import_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$(cd "$1" && pwd)
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
HOME="$tmp/home"
export HOME
mkdir -p "$HOME"
unset PYTHONPATH PYTHONUSERBASE GPUSIM_BUILD_DIR GPUSIM_EXECUTABLE GPUSIM_PYTHON_PLUGIN || true

out=$(sh "$src/python/install_pth.sh" "$build")
echo "$out"
echo "$out" | grep -q "wrote $HOME/.local/lib/python3.*/site-packages/gpusim-tlm.pth ($build/python)"

cd "$tmp"
check='
import os, sys, gpusim
build = sys.argv[1]
assert gpusim.__file__ == os.path.join(build, "python", "gpusim", "__init__.py"), gpusim.__file__
assert gpusim.executable() == os.path.join(build, "gpusim"), gpusim.executable()
r = gpusim.run(workload="vectoradd:n=256")
assert r.summary["cycles"] > 0
print(sys.executable, "imported", gpusim.__file__, "and ran", r.summary["cycles"], "cycles")
'
/usr/bin/python3 -c "$check" "$build"
other=$(command -v python3 || true)
if [ -n "$other" ] && [ "$(realpath "$other")" != "$(realpath /usr/bin/python3)" ]; then
    same=$("$other" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    if [ "$same" = "$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" ]; then
        "$other" -c "$check" "$build"
    else
        echo "python3 on PATH ($other) is Python $same: its own user site, also written above"
    fi
fi
