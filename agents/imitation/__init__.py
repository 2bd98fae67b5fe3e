"""Learning a MaskablePPO policy from another agent's games (``friday imitate``) and the study of
what makes Friday learnable.

- ``data`` — teacher games on training deals (collection, resumable) and the dataset they encode to;
- ``fit`` — behaviour cloning into the policy ``friday train`` builds, and DAgger games;
- ``cli`` / ``steps`` — the ``friday imitate`` command and its steps;
- ``study`` — measuring a recipe on the evaluation deals
  (``python -m friday_agents.imitation.study``);
- ``report`` — the README's learned-agent section, rendered from the result files.
"""
