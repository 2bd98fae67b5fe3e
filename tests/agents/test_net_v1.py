"""The role ``net-v1`` (net-scale PLAN, amendment 10): the ``net`` network before the net-scale
study, kept unchanged as ``guided``'s default prior. (The committed results that say ``net``
store what played: ``tests/docs/test_results_record.py``.)"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

from friday_agents.models import NET, NET_V1, ROLES
from friday_agents.players.networks.policy_net import load_policy_network
from friday_agents.players.registry import make_agent
from friday_agents.players.search.guided import GuidedSearchAgent

#: The SHA-256 of ``net.npz`` before the net-scale study (commit 5df990d, where amendment 10
#: was written): ``net_v1.npz`` must stay that file, byte for byte.
NET_BEFORE_NET_SCALE_SHA256 = "2c54f8782f17eb8f3e28e99e2d48b106739fd8452938cda35de1dcc8c73dfaaa"


REPO = Path(__file__).resolve().parents[2]
#: Stage 3 of the net-scale study: the network it chose, the one ``net`` names since.
NET_SCALE_CHOICE = REPO / "experiments/net-scale/results/selection/choice.json"


def test_net_is_the_network_the_net_scale_study_chose():
    chosen = json.loads(NET_SCALE_CHOICE.read_text())["chosen"]
    name, option = chosen.split(":", 1)
    assert name == "net" and option.startswith("model=")
    assert (REPO / option.removeprefix("model=")).read_bytes() == NET.read_bytes()
    assert NET.read_bytes() != NET_V1.read_bytes()


def test_net_v1_is_the_net_network_of_before_the_net_scale_study():
    assert ROLES["net-v1"] == NET_V1
    assert hashlib.sha256(NET_V1.read_bytes()).hexdigest() == NET_BEFORE_NET_SCALE_SHA256
    assert make_agent("net:model=net-v1").policy.network is load_policy_network(NET_V1)


def test_guided_default_prior_is_net_v1():
    default = inspect.signature(GuidedSearchAgent).parameters["prior"].default
    assert default == "net-v1"
    network = make_agent("guided").prior.network
    assert network is load_policy_network(NET_V1)
    assert network is make_agent("guided:prior=net-v1").prior.network
