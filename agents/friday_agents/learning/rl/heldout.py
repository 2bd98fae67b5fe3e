"""``friday rl``'s play outside training: the held-out evaluation (the greedy policy on the
fixed validation deals of each level measured) and, with ``--init``, the start policy's
temperature, chosen from its sampled play on training deals."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from friday_agents.harness.deals import draw_training_deals, heldout_deals
from friday_agents.learning.networks import ActorCritic
from friday_agents.learning.rl.config import RLConfig
from friday_agents.learning.rl.games import make_envs, tensors
from friday_agents.learning.rl.group import Group

#: The temperatures ``--init-temperature auto`` tries, and how close to the best sampled
#: win rate the chosen (largest such) one must come.
TEMPERATURES = (1.0, 0.5, 0.2, 0.1, 0.05, 0.02)
CALIBRATION_SHARE = 0.9


class HeldOut:
    """The policy's play outside training, on ``device``, in a vector env per level and
    number of games (a vector env plays one level; made when first needed)."""

    def __init__(self, config: RLConfig, device: torch.device) -> None:
        self.config, self.device = config, device
        self.envs: dict[tuple[int, int], Any] = {}

    def _envs(self, level: int, games: int) -> Any:
        if (level, games) not in self.envs:
            self.envs[level, games] = make_envs(self.config, games, level)
        return self.envs[level, games]

    def evaluate(self, model: ActorCritic, group: Group | None = None) -> dict[str, Any]:
        """The greedy policy (the legal action with the highest logit, as ``net`` plays)
        on the fixed validation deals of each level measured: win rate and mean score (the
        trained level's at the top of the row, every level's under ``heldout_by_level``
        when ``--eval-levels`` names more). The processes of ``group`` share the deals (the
        weights are the same in all of them) and every one returns the whole row."""
        by_level = {}
        for level in self.config.eval_level_list():
            deals = heldout_deals(level, self.config.eval_deals)
            won, score = self._play_shared(model, deals, level, group or Group())
            by_level[str(level)] = {
                "heldout_win_rate": float(won.mean()),
                "heldout_mean_score": float(score.mean()),
                "heldout_deals": len(deals),
            }
        row: dict[str, Any] = dict(by_level[str(self.config.level)])
        if len(by_level) > 1:
            row["heldout_by_level"] = by_level
        trained = self.config.trained_levels()
        if len(trained) > 1:  # --levels: the mean over the levels trained on
            rates = [by_level[str(level)]["heldout_win_rate"] for level in trained]
            row["heldout_trained_win_rate"] = float(np.mean(rates))
        return row

    def _play_shared(
        self, model: ActorCritic, deals: list[int], level: int, group: Group
    ) -> tuple[np.ndarray, np.ndarray]:
        """Greedy play of ``deals``, each process of ``group`` playing every ``world``-th
        deal from its rank on (rather than rank 0 all of them while the others wait): won
        and score in deal order, in every process."""
        mine = deals[group.rank :: group.world]
        played = (
            self.play(model, mine, temperature=None, level=level)
            if mine
            else (np.zeros(0, np.bool_), np.zeros(0, np.int64))
        )
        won, score = np.zeros(len(deals), np.bool_), np.zeros(len(deals), np.int64)
        for rank, (part_won, part_score) in enumerate(group.gather(played)):
            won[rank :: group.world], score[rank :: group.world] = part_won, part_score
        return won, score

    def play(
        self,
        model: ActorCritic,
        deals: list[int],
        temperature: float | None,
        generator: torch.Generator | None = None,
        level: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """One game of each deal of ``level`` (default: the trained one): greedy with
        ``temperature`` None, else sampled from the logits divided by it. Won and score."""
        envs = self._envs(self.config.level if level is None else level, len(deals))
        obs, info = envs.reset(options={"deal": deals})
        envs.set_next_deals(deals)  # games after the first are not counted
        won = np.zeros(len(deals), np.bool_)
        score = np.zeros(len(deals), np.int64)
        finished = np.zeros(len(deals), np.bool_)
        mask = info["action_mask"]
        while not finished.all():
            obs_t, mask_t = (tensor.to(self.device) for tensor in tensors(obs, mask))
            with torch.no_grad():
                logits = model.masked_logits(obs_t, mask_t)
                if temperature is None:
                    actions = logits.argmax(-1).cpu().numpy()
                else:  # drawn on the CPU, with the CPU generator
                    probs = torch.softmax(logits / temperature, -1).cpu()
                    actions = torch.multinomial(probs, 1, generator=generator).squeeze(1).numpy()
            obs, _, terminated, _, info = envs.step(actions)
            mask = info["action_mask"]
            new = terminated & ~finished
            if new.any():
                won[new] = info["final_info"]["won"][new]
                score[new] = info["final_info"]["final_score"][new]
                finished |= new
        return won, score

    def calibrate_temperature(
        self, model: ActorCritic, rng: np.random.Generator, group: Group
    ) -> dict[str, Any]:
        """Sharpen the start policy for sampling (see ``docs/rl.md``): with ``auto``, the
        largest temperature of `TEMPERATURES` whose sampled win rate on training
        deals (``eval_deals`` of each trained level, their mean with ``--levels``) is at
        least `CALIBRATION_SHARE` of the best one's (1 if none wins);
        the actor's last layer is divided by it, which leaves its greedy play unchanged.
        Rank 0 of a data-parallel run chooses, the others take its choice."""
        config = self.config
        if not config.init:
            return {}
        rates: dict[str, float] = {}
        if config.init_temperature == "auto" and not group.main:
            chosen, rates = group.share(None)  # rank 0's choice
        elif config.init_temperature == "auto":
            levels = config.trained_levels()
            deals = {
                level: [int(d) for d in draw_training_deals(level, config.eval_deals, rng)]
                for level in levels
            }
            generator = torch.Generator().manual_seed(config.seed)
            for temperature in TEMPERATURES:
                won = [self.play(model, deals[lv], temperature, generator, lv)[0] for lv in levels]
                rates[str(temperature)] = float(np.mean([w.mean() for w in won]))
            best = max(rates.values())
            close = [t for t in TEMPERATURES if rates[str(t)] >= CALIBRATION_SHARE * best]
            chosen = max(close) if best > 0 else 1.0
            group.share((chosen, rates))
        else:
            chosen = float(config.init_temperature)
        last = [m for m in model.actor if isinstance(m, nn.Linear)][-1]
        with torch.no_grad():
            last.weight.div_(chosen)
            last.bias.div_(chosen)
        return {"init_temperature": chosen, "sampled_win_rate_by_temperature": rates}

    def close(self) -> None:
        for envs in self.envs.values():
            envs.close()
