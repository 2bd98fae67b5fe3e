"""The strongest fair player: the search guided by what it learned from its own games.

[`GuidedSearchAgent`][friday_agents.players.search.guided.GuidedSearchAgent] is
[`SearchAgent`][friday_agents.players.search.agent.SearchAgent] with two learned ingredients and
one width per level, each chosen by a pre-registered rule on the validation deals (the level-4
leaf study, ``experiments/level4-value/PLAN.md``, rules 2, 4 and 5; the level-4 breadth study,
``experiments/level4-breadth/PLAN.md``, rules 1 and 2):

- a **policy prior** (``prior="net-v1"``): the ``net`` agent's network before the net-scale
  study (the role ``net-v1``) proposes actions; only they and the heuristic's choice are
  tried, so the search referees between a few candidates with all its worlds, and does not
  search at all where they agree. It replaced
  ``guided-prior`` (a network fitted on the search's own action values): a paired +4.05 points
  averaged over levels 1-4 on 500 validation deals per level, at 1.15x the CPU per game;
- a **leaf value per level** (``value="guided-value-leaf"``): on levels 1-3 the linear model
  on the ``cards`` features (the public summary plus a count of each card type Robinson holds
  and the pirates he faces), fitted on guided's and the search's own games
  (``guided-value-cards``); on level 4 a network of the probability of winning
  (``guided-leaf-level4``, fitted by ``friday value fit`` on 1.2 M level-4 positions), which
  replaced the linear model: a paired +18.2 points [12.8, 23.8] on 500 level-4 validation deals;
- **how many of the prior's actions are tried, per level** (`GUIDED_TOPS`, when ``top`` is
  left out): the prior's best one on levels 1-3, its best three on level 4, which won 77.8 %
  of 500 level-4 validation deals against 69.4 % with one (a paired +8.4 points [3.6, 13.4]),
  at 1.91x the CPU per game (``experiments/level4-breadth/results/decision.json``). A ``top``
  given in the spec is used on every level (``guided:top=1`` is guided with one everywhere).

The defaults before these studies stay one spec away: `BEFORE_LEAF_STUDY`
(``guided:prior=guided-prior:value=guided-value-per-level:top=1``) plays as ``guided`` did
before the leaf study, `BEFORE_BREADTH_STUDY` (``guided:top=1``) as it did between the two,
and the committed results measured with those defaults name them (`as_before_leaf_study`,
`as_before_breadth_study`). The prior kept its network when the role ``net`` changed meaning
(the net-scale study, ``experiments/net-scale/PLAN.md`` amendment 10): the results committed
before that name the network ``net``, and `as_before_net_scale` names it ``net-v1``, as they
played. Every ingredient reads only the public observation; ``search`` itself keeps its
defaults, so every committed run of ``search`` replays as it was measured.
"""

from __future__ import annotations

from friday_agents.players.search.agent import DEFAULT_SIMS, PIRATE_STEP, SearchAgent

#: ``guided``'s ``top`` per level when the spec leaves it out: how many of the prior's best
#: actions are tried besides the heuristic's choice. Level 4's 3 was adopted by the level-4
#: breadth study's rules 1-2 (``experiments/level4-breadth/results/decision.json``); levels
#: 1-3 keep 1: two or three candidates lost 11-34 points there (the same study's amendment 2,
#: ``results/decision-level{1,2,3}.json``).
GUIDED_TOPS = {1: 1, 2: 1, 3: 1, 4: 3}
#: ``guided`` as it was before the level-4 leaf study (its prior, value and ``top`` then), the
#: spec that names the configuration of every committed result measured before it.
BEFORE_LEAF_STUDY = "guided:prior=guided-prior:value=guided-value-per-level:top=1"
#: ``guided`` as it was between the level-4 leaf study and the level-4 breadth study: the
#: prior's best action alone on every level.
BEFORE_BREADTH_STUDY = "guided:top=1"
#: The network the role ``net`` named before the net-scale study: ``guided``'s default prior.
NET_V1_ROLE = "net-v1"
#: The options that name a policy network by its role.
NETWORK_OPTIONS = ("prior", "rollout", "model")


class GuidedSearchAgent(SearchAgent):
    """Search with a policy prior and per-level values (see the module docstring).

    ## Arguments

    The same as [`SearchAgent`][friday_agents.players.search.agent.SearchAgent], with other
    defaults: ``prior="net-v1"``, ``value="guided-value-leaf"`` (model roles,
    [`friday_agents.models`][friday_agents.models]) and ``top`` per level (`GUIDED_TOPS`: 1
    on levels 1-3, 3 on level 4; a ``top`` given is used on every level).
    ``guided:prior=:top=...`` is not allowed (``top`` needs a prior); ``guided:value=`` gives
    back the heuristic-fitted value; `BEFORE_LEAF_STUDY` and `BEFORE_BREADTH_STUDY` give back
    the defaults before the level-4 leaf and breadth studies.
    """

    name = "guided"
    default_tops = GUIDED_TOPS

    def __init__(
        self,
        sims: int = DEFAULT_SIMS,
        value: str = "guided-value-leaf",
        horizon: int = 1,
        prior: str = NET_V1_ROLE,
        top: int | None = None,
        rollout: str = "",
        finish: int = PIRATE_STEP,
    ) -> None:
        super().__init__(
            sims=sims,
            value=value,
            horizon=horizon,
            prior=prior,
            top=top,
            rollout=rollout,
            finish=finish,
        )


def as_before_leaf_study(spec: str) -> str:
    """The explicit spec of ``spec`` as it played before the level-4 leaf study: a ``guided``
    spec gets the defaults of then (`BEFORE_LEAF_STUDY`) for the options it leaves out
    (``guided`` is ``guided:prior=guided-prior:value=guided-value-per-level:top=1``,
    ``guided:prior=net`` is ``guided:prior=net:value=guided-value-per-level:top=1``); any
    other spec is returned as it is. Results committed before the change name their agents so."""
    return _spelled_out(spec, BEFORE_LEAF_STUDY)


def as_before_breadth_study(spec: str) -> str:
    """The explicit spec of ``spec`` as it played before the level-4 breadth study (and after
    the leaf study): a ``guided`` spec without ``top`` gets ``top=1`` (``guided`` is
    ``guided:top=1``); a spec naming ``top``, and any other agent's, is returned as it is.
    Results committed between the two studies name their agents so."""
    return _spelled_out(spec, BEFORE_BREADTH_STUDY)


def as_before_net_scale(spec: str) -> str:
    """The spec of ``spec`` as it played before the net-scale study gave the role ``net`` its
    network: the ``net`` agent without a model is ``net:model=net-v1``, and ``prior=net``,
    ``rollout=net`` and ``model=net`` (the role, not a path) name ``net-v1``; any other spec
    is returned as it is (``guided`` had ``net-v1``'s network as its prior then and has it
    since). Results committed before the change name their agents so."""
    name, *options = spec.split(":")
    options = [_as_net_v1(option) for option in options]
    if name == "net" and not any(o.partition("=")[0] == "model" and o != "model=" for o in options):
        options = [o for o in options if o != "model="] + [f"model={NET_V1_ROLE}"]
    return ":".join([name, *options])


def _as_net_v1(option: str) -> str:
    key, _, value = option.partition("=")
    return f"{key}={NET_V1_ROLE}" if key in NETWORK_OPTIONS and value == "net" else option


def _spelled_out(spec: str, then: str) -> str:
    """``spec`` with the options of ``then`` (a ``guided`` spec) that it leaves out, if it
    names ``guided``. Without a prior (``prior=``) ``top`` has no meaning and is refused, so it
    is not added."""
    name, *options = spec.split(":")
    if name != GuidedSearchAgent.name:
        return spec
    given = dict(option.partition("=")[::2] for option in options)
    added = [o for o in then.split(":")[1:] if o.partition("=")[0] not in given]
    if given.get("prior") == "":
        added = [o for o in added if o.partition("=")[0] != "top"]
    return ":".join([name, *options, *added])
