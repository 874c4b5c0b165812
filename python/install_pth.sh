#!/bin/sh
# `import gpusim` from any directory: writes gpusim-tlm.pth, naming the build tree's copy of the
# package (BUILD_DIR/python, whose gpusim/_install.py names this build's executable and plugin),
# into the user site directory of Debian's python3 and of the python3 first on PATH. Interpreters
# of one minor version share that directory (~/.local/lib/python3.X/site-packages), so a pyenv or
# a hand-built python3.X sees it as Debian's does; a venv without system site packages, or
# `python3 -s`, does not read it (PYTHONPATH=BUILD_DIR/python then). Prints what it wrote.
#   python/install_pth.sh BUILD_DIR
set -eu

if [ $# -ne 1 ]; then
    echo "usage: python/install_pth.sh BUILD_DIR" >&2
    exit 2
fi
if [ ! -f "$1/python/gpusim/__init__.py" ]; then
    echo "install_pth: $1/python/gpusim not built (cmake --build $1 --target gpusim_python)" >&2
    exit 2
fi
pkg_dir=$(cd "$1/python" && pwd)
done_sites=""
for py in /usr/bin/python3 "$(command -v python3 || true)"; do
    [ -x "$py" ] || continue
    site=$("$py" -c 'import site; print(site.getusersitepackages())' 2>/dev/null) || continue
    case " $done_sites " in *" $site "*) continue ;; esac
    done_sites="$done_sites $site"
    mkdir -p "$site"
    echo "$pkg_dir" > "$site/gpusim-tlm.pth"
    echo "setup: wrote $site/gpusim-tlm.pth ($pkg_dir): \`import gpusim\` works from any directory with $py"
done
