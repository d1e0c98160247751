"""The wheel's build step (hatchling's custom hook, pyproject.toml): the compiled catalogs.

The translations are kept as .po files and never committed compiled; the installed program
reads .mo files. Each catalog is compiled here by Babel's compiler (scripts/messages.py, as
``make install`` does; babel is in the build's requirements), into the build's scratch
folder, and put in the wheel beside the rest of ``locale/`` (``config/site/locale``,
config/paths.py). An editable install reads the checkout's own, compiled by ``make install``.
"""

from __future__ import annotations

import runpy
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        messages = runpy.run_path(str(root / "scripts" / "messages.py"))
        self._scratch = tempfile.TemporaryDirectory(prefix="fortyfives-mo-")
        scratch = Path(self._scratch.name)
        for po in sorted((root / "locale").glob("*/LC_MESSAGES/*.po")):
            relative = po.relative_to(root / "locale").with_suffix(".mo")
            mo = scratch / relative
            mo.parent.mkdir(parents=True, exist_ok=True)
            messages["compile_mo"](po, mo)
            build_data["force_include"][str(mo)] = f"config/site/locale/{relative.as_posix()}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            scratch.cleanup()
