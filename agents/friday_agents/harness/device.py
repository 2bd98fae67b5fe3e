"""Where a learning command's torch work runs: ``--device auto|cpu|cuda``.

``auto`` is CUDA when torch sees a GPU, else the CPU; ``cuda`` on a machine without one
stops the command with one line (exit 2), never a silent fall back to the CPU. torch is
imported inside the function: ``friday --help`` stays fast.
"""

from __future__ import annotations

from friday_agents.harness.errors import BadInputError

DEVICES = ("auto", "cpu", "cuda")


def torch_device(device: str) -> str:
    """The torch device ``--device device`` names: ``"cpu"`` or ``"cuda"``."""
    import torch

    if device not in DEVICES:
        raise BadInputError(f"unknown device {device!r}; choose one of {', '.join(DEVICES)}")
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise BadInputError(
            "--device cuda: torch sees no CUDA GPU on this machine (try --device cpu)"
        )
    return device
