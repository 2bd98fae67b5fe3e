"""Learning a MaskablePPO policy from another agent's games (``friday imitate``).

- ``data`` — teacher games on training deals (collection, resumable) and the dataset they encode to;
- ``fit`` — behaviour cloning into the policy ``friday train`` builds, and DAgger games;
- ``cli`` / ``steps`` — the ``friday imitate`` command and its steps.

The study of what makes Friday learnable (measuring recipes on the evaluation deals, its
report) is ``experiments/imitation/`` (``python experiments/imitation/study.py``).
"""
