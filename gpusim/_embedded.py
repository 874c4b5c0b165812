"""Inside a gpusim process: the side of the Python policy plugin (python/PythonPolicyPlugin.cpp)
written in Python. The plugin imports this module in its embedded interpreter, asks it for the
policy classes named in $GPUSIM_PYTHON_POLICIES (set by gpusim.run and gpusim.sweep), for their
parameters, and to instantiate them. Not for direct use."""

import hashlib
import importlib
import importlib.util
import os
import sys

ENV = "GPUSIM_PYTHON_POLICIES"
SEPARATOR = ";"


def _load(entry):
    """'MODULE:QUALNAME', '/path/file.py:QUALNAME' or '/path/file.pickle:QUALNAME' -> the class."""
    where, _, qualname = entry.rpartition(":")
    if not where or not qualname:
        raise ValueError(f"{ENV}: '{entry}' is not MODULE:CLASS, FILE.py:CLASS or FILE.pickle:CLASS")
    if where.endswith(".pickle"):
        return _unpickle(where)
    if where.endswith(".py"):
        # A script (the user's __main__): imported under a name of its own, so its
        # `if __name__ == "__main__":` block does not run again here.
        modname = "gpusim_policy_" + hashlib.sha1(where.encode()).hexdigest()[:12]
        module = sys.modules.get(modname)
        if module is None:
            spec = importlib.util.spec_from_file_location(modname, where)
            if spec is None:
                raise ImportError(f"{ENV}: cannot load {where}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[modname] = module
            spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _unpickle(path):
    """A class gpusim.run serialised by value (cloudpickle): loading it needs cloudpickle here too."""
    import pickle

    try:
        import cloudpickle  # noqa: F401 (the pickle refers to its functions)
    except ImportError:
        raise ImportError(f"{ENV}: {path}: a policy class sent by value needs cloudpickle in gpusim's Python "
                          "(Debian python3-cloudpickle; ./setup.sh installs it)") from None
    with open(path, "rb") as f:
        return pickle.load(f)


def policy_classes():
    from gpusim import Policy

    classes = []
    for entry in filter(None, os.environ.get(ENV, "").split(SEPARATOR)):
        cls = _load(entry)
        if not (isinstance(cls, type) and issubclass(cls, Policy)):
            raise TypeError(f"{ENV}: {entry} is not a subclass of gpusim.Policy")
        if not isinstance(getattr(cls, "name", None), str) or not cls.name:
            raise TypeError(f"{ENV}: {entry} has no `name` (the scheduler name, a string)")
        classes.append(cls)
    return classes


def description(cls):
    text = cls.description or (cls.__doc__ or "").strip().split("\n")[0]
    return (text or f"Python policy {cls.__module__}.{cls.__qualname__}") + " (Python)"


class _Param:
    def __init__(self, name, default, lo, hi, desc, integer):
        self.name, self.default, self.min, self.max = name, default, lo, hi
        self.description, self.integer = desc, integer


def params(cls):
    from gpusim import _param_decls

    return [_Param(*p) for p in _param_decls(cls)]


def instantiate(cls, values):
    from gpusim import _param_decls

    integer = {p[0]: p[5] for p in _param_decls(cls)}
    kw = {k: int(v) if integer.get(k) else float(v) for k, v in values.items()}
    return cls(**kw)
