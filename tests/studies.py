"""Import a study script of ``experiments/<study>/`` in a test.

The studies are scripts run as ``python experiments/<study>/<script>.py``: not installed,
and importing their siblings (``report.py`` beside ``study.py``) by plain name, as Python
does for a script's own folder. A test imports them the same way: the study's folder goes
on ``sys.path`` and the script is imported by its file name.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"


def study_module(study: str, script: str) -> ModuleType:
    """The script ``experiments/<study>/<script>.py`` as a module."""
    folder = EXPERIMENTS / study
    if not (folder / f"{script}.py").is_file():
        raise FileNotFoundError(f"no study script {folder / script}.py")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(script)
