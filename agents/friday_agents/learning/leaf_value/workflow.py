"""A leaf network's fit, from two data folders to the network and its report: what ``friday
value fit`` runs. `LeafFit` holds the settings, typed; `fit_leaf_value` checks them, reads the
training-deal and validation-deal positions (`friday_agents.learning.leaf_value.chunks`), fits
(`friday_agents.learning.leaf_value.fit`), writes the network (.npz, played as ``value=FILE``)
and the report (JSON) and returns the report. From Python::

    fit_leaf_value(LeafFit(Path("data/l4"), Path("data/l4-validation"), Path("leaf.npz")))

Bad settings raise `friday_agents.harness.errors.BadInputError` before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from friday_agents.harness.device import torch_device
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.paths import portable_path
from friday_agents.learning.config import parse_hidden

#: What a fit may fit on: every position, or those of the agent's own games only.
SOURCES = ("all", "base")


@dataclass(frozen=True)
class LeafFit:
    """One fit: the training-deal folder ``data``, the validation-deal folder
    ``validation`` (the epoch with its lowest log-loss is kept), the network file ``out`` and
    the report (None: ``out`` with ``.json``)."""

    data: Path
    validation: Path
    out: Path
    report: Path | None = None
    hidden: tuple[int, ...] = (64, 64)  # hidden layer sizes: 1 to 3 of at most 512
    max_epochs: int = 20
    patience: int = 3  # epochs in a row without a better validation loss before it stops
    sources: str = "all"  # a SOURCES name
    seed: int = 0
    device: str = "auto"  # auto, cpu or cuda

    def check(self) -> LeafFit:
        """These settings, or `BadInputError` naming the first one that cannot be fitted."""
        text = ",".join(map(str, self.hidden))
        parse_hidden(text, BadInputError, "--hidden", most_layers=3, largest=512)
        if self.max_epochs < 1 or self.patience < 1:
            raise BadInputError("--max-epochs and --patience must be at least 1")
        if self.sources not in SOURCES:
            raise BadInputError(f"--sources must be one of {', '.join(SOURCES)}")
        return self

    @property
    def report_path(self) -> Path:
        return self.report or self.out.with_suffix(".json")


def _say_now(line: str) -> None:
    print(line, flush=True)


def fit_leaf_value(settings: LeafFit, say: Callable[[str], None] = _say_now) -> dict[str, Any]:
    """Fit, write the network and the report, and return the report; ``say`` hears each
    epoch's validation scores, the held-out report and the files written."""
    settings.check()
    device = torch_device(settings.device)  # cuda without CUDA: refused before any file
    import numpy as np

    from friday_agents.learning.leaf_value.chunks import read_positions, read_settings
    from friday_agents.learning.leaf_value.fit import (
        fit_leaf_network,
        held_out_report,
        model_inputs,
    )
    from friday_agents.players.networks.leaf_net import save_leaf_network

    for folder, wanted in ((settings.data, "training"), (settings.validation, "validation")):
        found = read_settings(folder).get("deal_set")
        if found != wanted:
            raise BadInputError(f"{folder} holds {found} deals, not {wanted} deals")
    level = read_settings(settings.data)["level"]
    data, validation = read_positions(settings.data), read_positions(settings.validation)
    if settings.sources == "base":
        keep = data["sources"] == 0
        data = {k: v[keep] if v.ndim and len(v) == len(keep) else v for k, v in data.items()}
    train_xy, validation_xy = model_inputs(data, level), model_inputs(validation, level)
    network, record = fit_leaf_network(
        train_xy,
        validation_xy,
        settings.hidden,
        settings.max_epochs,
        settings.patience,
        settings.seed,
        lambda epoch: say(f"epoch {epoch['epoch']}: validation {epoch['validation']}"),
        device,
    )
    report = {
        "data": portable_path(settings.data),  # never an absolute path of this machine
        "validation": portable_path(settings.validation),
        "level": level,
        "sources": settings.sources,
        "train_positions": len(train_xy[1]),
        "data_cpu_seconds": round(float(data["cpu_seconds"]), 1),
        "hidden": list(settings.hidden),
        "max_epochs": settings.max_epochs,
        "patience": settings.patience,
        "seed": settings.seed,
        "device": device,
        **record,
        "held_out": held_out_report(network, *validation_xy, base_rate=float(np.mean(train_xy[1]))),
    }
    save_leaf_network(network, settings.out)
    write_text_atomically(settings.report_path, json.dumps(report, indent=1) + "\n")
    say(json.dumps(report["held_out"], indent=1))
    say(f"friday value fit: wrote {settings.out} and {settings.report_path}")
    return report
