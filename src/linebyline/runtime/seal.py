"""The checks' own copies of everything they use, taken before any learner code runs.

A learner's file runs in the same Python as the checks (in the browser there is no other), so it
can change what the checks rely on: ``math.isclose = lambda *a, **k: True``, a builtin such as
``all``, or a function of this very package. That would fool only the learner, but a checker
should not be that easy to fool, by accident or by a "fix" pasted from somewhere. So:

- When this module is first imported, before any learner code (the CLI's child process and the
  browser's worker both import it first), it compiles the files of this package and copies the
  builtins and the namespaces of the standard-library modules that checks are likely to use.
- Every check run gets a fresh, private instance of this package: its files executed from those
  compiled copies into module objects that are never put in ``sys.modules``. Their builtins are
  the copy; their imports get the copied standard-library modules and each other's private
  instances. A later ``math.isclose = ...`` or ``linebyline.runtime.runner.evaluate = ...`` changes
  the real or the public module, never what the checks hold.
- The functions here keep what they use in their own closures, so replacing this module's
  attributes changes nothing for the callers that took them at start (the CLI's child process,
  the browser's worker).
- In the browser, Python stays up between runs: ``restore()`` puts back the builtins and the
  module attributes the last run replaced, so one run's patches do not leak into the next.
- A lesson's checks.py is compiled once and its code object kept here (code objects cannot be
  changed); it is executed afresh, into the new private instance, on every run.

The learner's own code runs with the real builtins and modules, exactly as with ``python``.
Nothing here stops code that goes looking for the private copies on purpose (through the garbage
collector or stack frames); what it stops is patching by name.
"""
from __future__ import annotations

import builtins
import os
import sys
import types
from collections.abc import Callable
from typing import Any


class StopRun(BaseException):
    """Raised from outside (a timer, the Stop button) to end the learner's code.

    A BaseException, so that a learner's ``except Exception`` cannot swallow it. One class for
    the public package and every private instance.
    """


PACKAGE = __name__.rpartition(".")[0]  # linebyline.runtime
# Python's recursion limit before any learner code: a higher one later is the learner's doing.
RECURSION_LIMIT = sys.getrecursionlimit()
# Copied as soon as this module loads. Any other module is copied when checks first import it.
EARLY = ("__future__", "cmath", "collections", "collections.abc", "copy", "functools", "io",
         "itertools", "json", "linecache", "math", "operator", "os", "random", "re", "shutil",
         "string", "tempfile", "traceback", "types", "typing")
# Handed over as they are: copies of these would stop working (sys.stdout, say).
SHARED = ("builtins", "sys")
# How many lessons' compiled checks are kept (compiling 7.5's checks.py is most of a check's
# time in the browser; bench/check_profile.py measures it).
CHECKS_KEPT = 16


_FOLDER = os.path.dirname(os.path.abspath(__file__))
_BUILTINS = dict(vars(builtins))  # deleted below: only the closures keep it


def _compiled(folder: str) -> dict[str, Any]:
    """This package's files (but this one), compiled: from the bytecode Python keeps beside them
    when it is current, as an import would take it, else from their source. A check's process
    starts here, so compiling every file each time was a third of what starting one cost."""
    from importlib.machinery import SourceFileLoader

    compiled: dict[str, Any] = {}
    for entry in sorted(os.listdir(folder)):
        if entry.endswith(".py") and entry != "seal.py":
            name = f"{PACKAGE}.{entry[:-3]}"
            compiled[entry[:-3]] = SourceFileLoader(name, os.path.join(folder, entry)).get_code(name)
    return compiled


def _instances(compiled: dict[str, Any], copy_of: Callable[[str], Any],
               base_builtins: dict[str, Any], this: Any, folder: str, exec=exec, dict=dict,
               setattr=setattr, hasattr=hasattr, ImportError=ImportError, PACKAGE=PACKAGE,
               Module=types.ModuleType, join=os.path.join) -> Callable[[], Any]:
    """instance(), made at import (as _seal's closures are, everything it uses is an argument)."""
    def instance() -> Any:
        """A new private instance of this package: its `__init__` module, fully loaded."""
        private: dict[str, Any] = {}
        own_builtins = dict(base_builtins)

        def load(short: str) -> Any:
            name = f"{PACKAGE}.{short}" if short else PACKAGE
            if name in private:
                return private[name]
            module = Module(name)
            module.__dict__.update(__builtins__=own_builtins, __package__=PACKAGE,
                                   __file__=join(folder, f"{short or '__init__'}.py"))
            private[name] = module  # before it runs: import cycles see it half made, as usual
            exec(compiled[short or "__init__"], module.__dict__)
            if short and PACKAGE in private:
                setattr(private[PACKAGE], short, module)
            return module

        def private_import(name: str, globals: Any = None, locals: Any = None,
                           fromlist: Any = (), level: int = 0) -> Any:
            if level:
                if level != 1 or not globals or globals.get("__package__") != PACKAGE:
                    raise ImportError(f"relative import of {name!r} outside {PACKAGE}")
                name = f"{PACKAGE}.{name}" if name else PACKAGE
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                short = name[len(PACKAGE) + 1:]
                if short == "seal":
                    return this
                if short and short not in compiled:
                    raise ImportError(f"no module named {name!r}")
                module = load(short)
                for item in fromlist or ():
                    if item in compiled and not hasattr(module, item):
                        load(item)
                if fromlist:
                    return module
                top = Module(PACKAGE.partition(".")[0])  # `import linebyline.runtime`
                setattr(top, "runtime", load(""))
                return top
            if fromlist:
                return copy_of(name)
            parts = name.split(".")
            for index in range(1, len(parts)):  # `import a.b`: a, with a.b reachable from it
                setattr(copy_of(".".join(parts[:index])), parts[index],
                        copy_of(".".join(parts[:index + 1])))
            return copy_of(parts[0])

        own_builtins["__import__"] = private_import
        return load("")

    return instance


def _evaluators(instance: Callable[[], Any], compile=compile, len=len, next=next, iter=iter,
                CHECKS_KEPT=CHECKS_KEPT) -> tuple[Callable[..., Any], ...]:
    """evaluate(), evaluate_json() and the runner's to_json, made at import."""
    checks_code: dict[tuple[str, str], Any] = {}  # (checks source, file name): code object

    def compiled_checks(checks_source: str, filename: str) -> Any:
        """checks.py's code object: compiled on first use, then taken from checks_code."""
        key = (checks_source, filename)
        code = checks_code.get(key)
        if code is None:
            code = compile(checks_source, filename, "exec", dont_inherit=True)
            if len(checks_code) >= CHECKS_KEPT:
                del checks_code[next(iter(checks_code))]  # the lesson compiled longest ago
            checks_code[key] = code
        return code

    def evaluate(source: str, checks_source: str, **options: Any) -> dict[str, Any]:
        """The runner's evaluate(), on a fresh private instance: plain data (see runner.py)."""
        code = compiled_checks(checks_source, options.get("checks_filename", "checks.py"))
        return instance().runner.evaluate(source, checks_source, checks_code=code, **options)

    encoder = instance().runner.to_json

    def evaluate_json(source: str, checks_source: str, **options: Any) -> str:
        """The same, as the JSON text of the result contract."""
        code = compiled_checks(checks_source, options.get("checks_filename", "checks.py"))
        runner = instance().runner
        return runner.to_json(runner.evaluate(source, checks_source, checks_code=code, **options))

    return evaluate, evaluate_json, encoder


def _seal(dict=dict, list=list, getattr=getattr, SHARED=SHARED,
          real_import=builtins.__import__, modules=sys.modules, Module=types.ModuleType,
          folder=_FOLDER, base_builtins=_BUILTINS, this=sys.modules[__name__],
          instances=_instances, evaluators=_evaluators):
    # Everything the closures below use is a default argument above or a local variable here:
    # taken now, at import.
    real_builtins = builtins.__dict__
    compiled = _compiled(folder)
    copies: dict[str, Any] = {}
    kept: dict[str, Any] = {}  # name: (the real module, its namespace when kept)

    def keep(name: str) -> None:
        """Remember module `name` as it is now, for restore()."""
        if name not in kept:
            kept[name] = (modules[name], dict(modules[name].__dict__))

    def copy_of(name: str) -> Any:
        if name in SHARED:
            return modules[name]
        if name not in copies:
            real_import(name)
            real = modules[name]
            duplicate = Module(name, getattr(real, "__doc__", None))
            duplicate.__dict__.update(real.__dict__)
            copies[name] = duplicate
            keep(name)
        return copies[name]

    def restore() -> None:
        """Put back the builtins and the kept modules' attributes that a run replaced or deleted.

        Attributes a run added to a module stay (Python adds some itself, a submodule say).
        """
        for key in list(real_builtins):
            if key not in base_builtins:
                del real_builtins[key]
        for key, value in base_builtins.items():
            if real_builtins.get(key, restore) is not value:
                real_builtins[key] = value
        for name, (module, namespace) in kept.items():
            if modules.get(name) is not module:
                modules[name] = module
            current = module.__dict__
            for key, value in namespace.items():
                if current.get(key, restore) is not value:
                    current[key] = value

    for name in EARLY:
        copy_of(name)

    instance = instances(compiled, copy_of, base_builtins, this, folder)
    evaluate, evaluate_json, encoder = evaluators(instance)
    return instance, evaluate, evaluate_json, encoder, keep, restore


instance: Callable[[], Any]
evaluate: Callable[..., dict[str, Any]]
evaluate_json: Callable[..., str]
to_json: Callable[[Any], str]
keep: Callable[[str], None]
restore: Callable[[], None]
instance, evaluate, evaluate_json, to_json, keep, restore = _seal()
del _seal, _instances, _evaluators, _BUILTINS
