"""Evaluation spread over many cores or machines with Ray: a batch cut into shards (contiguous
ranges of games, as ``wumpus solve --shard K/N`` cuts it), each shard a Ray task, and the
shards' summaries added up as ``wumpus merge`` adds them, so that the whole equals one run on
one machine (timings aside).

``scale.solve`` runs the project's agents (:func:`wumpus_logic.solve` on each shard);
``scale.play_batch`` runs any agent (:func:`wumpus_logic.harness.play_batch`), which Ray ships
to its workers (a callable Ray can pickle: a function, a lambda, an object). Call
``ray.init()`` first (``ray.init(address="auto")`` joins a cluster); with none, Ray starts a
local instance. Needs ``ray``.
"""

import json

from . import _core, harness
from . import solve as _solve


def _shards(shards):
    if shards < 1:
        raise ValueError("shards must be at least 1")
    return [f"{k}/{shards}" for k in range(1, shards + 1)]


def _merged(parts):
    return json.loads(_core.merge([json.dumps(p) for p in parts]))


def solve(rules="aima", worlds=1000, seed=0, shards=4, **options):
    """The summary :func:`wumpus_logic.solve` gives for the same batch, its shards played as
    Ray tasks."""
    import ray

    task = ray.remote(_solve)
    parts = ray.get([task.remote(rules, worlds, seed, None, None, shard, **options) for shard in _shards(shards)])
    return _merged(parts)


def play_batch(agent, rules="aima", worlds=1000, seed=0, shards=4, **options):
    """The summary :func:`wumpus_logic.harness.play_batch` gives for the same batch, its
    shards played as Ray tasks."""
    import ray

    task = ray.remote(harness.play_batch)
    parts = ray.get([task.remote(agent, rules, worlds, seed, shard=shard, **options) for shard in _shards(shards)])
    return _merged(parts)
