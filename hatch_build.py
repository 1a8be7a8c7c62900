"""Hatchling build hook: compile cardcrawl's hot modules with Cython, when asked to.

The modules are listed once, as ``COMPILED`` in ``src/cardcrawl/core/_compiled.py``
(read here as text: the build must not import the package it builds): the two rollout
kernels and the bots' seeds they derive, the engine and the kit every step runs, each
game's rules, state, events and actions, and the built-in bots. They are plain Python
and stay the reference. With ``CARDCRAWL_COMPILE=1`` in the environment, a regular
wheel (``CARDCRAWL_COMPILE=1 pip install .``, ``python -m build``) also gets each of
them compiled, unchanged, into an extension module that Python imports in place of the
``.py`` beside it; the ``.pxd`` files next to the kernels only give C types to names
that hold one kind of value. ``cardcrawl.compiled_modules()`` tells which you got.

Compiling is a choice, not the default: it takes minutes of CPU (about three on two
cores) for a speed-up only simulations and searching bots feel, so a plain
``pip install .`` builds the pure-Python wheel in seconds and needs neither Cython nor
a C compiler (the hook asks for Cython and setuptools only when compiling).

The wheel stays pure Python, with a message and nothing else lost, when:

- ``CARDCRAWL_COMPILE`` is unset or ``0`` (the default);
- ``CARDCRAWL_PURE_PYTHON=1`` is set, which wins over ``CARDCRAWL_COMPILE``;
- there is no working C compiler, or Cython fails (a warning says why);
- the install is editable (``pip install -e .``): the tests and the docs run on the
  reference source there.

A name of ``COMPILED`` whose source is gone (a module renamed or merged) is skipped with
a warning, so the build never breaks on a stale list; the test suite flags the list.
"""

from __future__ import annotations

import ast
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LIST = "src/cardcrawl/core/_compiled.py"


def compiled_modules(root: Path) -> dict[str, str]:
    """Module name -> source (relative to ``root``) of each module ``COMPILED`` names,
    whether or not that source exists."""
    tree = ast.parse((root / LIST).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            "COMPILED"
        ]:
            names = ast.literal_eval(node.value)
            return {name: "src/" + name.replace(".", "/") + ".py" for name in names}
    raise LookupError(f"{LIST} defines no COMPILED tuple")


def _set(variable: str) -> bool:
    return os.environ.get(variable, "") not in ("", "0")


def wanted() -> bool:
    """Whether the environment asks for the compiled build (see the module's text)."""
    return _set("CARDCRAWL_COMPILE") and not _set("CARDCRAWL_PURE_PYTHON")


class CompiledModules(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        # Asked for only when compiling: a plain install downloads neither.
        return ["Cython>=3.0.11", "setuptools>=70"] if wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if not wanted():
            self.app.display_info(
                "cardcrawl: pure-Python wheel; set CARDCRAWL_COMPILE=1 to compile the hot "
                "modules with Cython (minutes of CPU, simulations 2-3 times as fast)"
            )
            return
        self._work = tempfile.mkdtemp(prefix="cardcrawl-compiled-")
        try:
            built = self._compile(Path(self._work))
        except Exception as exc:  # no compiler, no headers, a Cython error: all fall back
            self.app.display_warning(
                "cardcrawl: the compiled modules were not built, so the wheel is pure Python "
                f"(identical games, slower): {type(exc).__name__}: {exc}"
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path, inside_wheel in built.items():
            build_data["force_include"][path] = inside_wheel
        self.app.display_info(f"cardcrawl: compiled {', '.join(sorted(built.values()))}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def _compile(self, work: Path) -> dict[str, str]:
        # Imported here: an sdist or an editable install never needs them.
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension

        root = Path(self.root)
        modules = compiled_modules(root)
        gone = sorted(name for name, source in modules.items() if not (root / source).is_file())
        if gone:
            self.app.display_warning(
                f"cardcrawl: {LIST} lists modules that have no source, skipped: {', '.join(gone)}"
            )
        modules = {name: source for name, source in modules.items() if name not in gone}
        extensions = [Extension(name, [str(root / source)]) for name, source in modules.items()]
        # About twenty modules: translate and compile them on every core.
        cores = os.cpu_count() or 1
        compiled = cythonize(
            extensions,
            build_dir=str(work / "c"),
            quiet=True,
            nthreads=cores,
            # Annotations are documentation here, never C types: the .pxd says what is typed.
            compiler_directives={"language_level": 3, "annotation_typing": False},
        )
        distribution = Distribution({"name": "cardcrawl", "ext_modules": compiled})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")  # type: ignore[attr-defined]
        command.build_temp = str(work / "temp")  # type: ignore[attr-defined]
        command.parallel = cores  # type: ignore[attr-defined]
        command.ensure_finalized()
        command.run()
        built = {}
        for name in modules:
            path = Path(command.get_ext_fullpath(name))  # type: ignore[attr-defined]
            if not path.is_file():
                raise FileNotFoundError(f"{path} was not built")
            built[str(path)] = f"{'/'.join(name.split('.')[:-1])}/{path.name}"
        return built
