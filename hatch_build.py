"""Hatchling build hook: compile cardcrawl's hot modules with Cython, where it can.

The modules are listed once, as ``COMPILED`` in ``src/cardcrawl/core/_compiled.py``
(read here as text: the build must not import the package it builds): the two rollout
kernels and the bots' seeds they derive, the engine and the kit every step runs, each
game's rules, state, events and actions, and the built-in bots. They are plain Python
and stay the reference. For a regular wheel (``pip install .``, ``python -m build``)
this hook also compiles each of them, unchanged, into an extension module that Python
imports in place of the ``.py`` beside it; the ``.pxd`` files next to the kernels only
give C types to names that hold one kind of value. ``cardcrawl.compiled_modules()``
tells which you got.

The wheel stays pure Python, with a warning and nothing else lost, when:

- ``CARDCRAWL_PURE_PYTHON=1`` is set (release-check builds the universal wheel so);
- there is no working C compiler, or Cython fails;
- the install is editable (``pip install -e .``): the tests and the docs run on the
  reference source there.
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
    """Module name -> source (relative to ``root``) of each module ``COMPILED`` names."""
    tree = ast.parse((root / LIST).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            "COMPILED"
        ]:
            names = ast.literal_eval(node.value)
            return {name: "src/" + name.replace(".", "/") + ".py" for name in names}
    raise LookupError(f"{LIST} defines no COMPILED tuple")


class CompiledModules(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("CARDCRAWL_PURE_PYTHON", "") not in ("", "0"):
            self.app.display_info(
                "cardcrawl: CARDCRAWL_PURE_PYTHON is set, so the wheel is pure Python"
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
