"""Hunt the Wumpus by logic, from Python.

The `wumpus` project's games (the textbook's rules, the grid with compass moves, the classic
cave, the caves.dat maze), its SAT-proving agents and its batch runner, built from the
project's Rust library (`wumpus_logic._core`):

- Gymnasium environments, registered on import: ``wumpus_logic/Aima-v0``,
  ``wumpus_logic/Grid-v0``, ``wumpus_logic/Cave-v0``, ``wumpus_logic/Maze-v0``
  (:mod:`wumpus_logic.envs`), and a vector environment stepping many worlds in one call
  (:mod:`wumpus_logic.vector`).
- The reasoning as a library: :func:`trace` (the lines of ``wumpus trace --json``),
  ``env.unwrapped.hint()`` (the agent's next step: proofs with the observations behind each,
  exact odds, the choices weighed), :func:`solve` (the project's agents on a batch).
- Your own agent on the same worlds: :mod:`wumpus_logic.harness` (a Python callable, or a
  program speaking one JSON line a turn), summed like ``wumpus solve``.

See docs/python.md in the repository.
"""

import json as _json

from . import _core
from ._core import Game, Tally, Worlds, spaces

__all__ = ["Game", "Tally", "Worlds", "spaces", "catalogue", "trace", "solve", "ENV_IDS"]


def catalogue():
    """The library's description of itself, as a dict: ``rules`` (each rule set with its
    title, goal, agents and the options it takes with their defaults), ``options`` (each
    option's kind, limits and help) and ``agents``. The keywords of :class:`Game`,
    :func:`solve`, :func:`trace` and the environments are its options' names."""
    return _json.loads(_core.catalogue())


def trace(rules="aima", seed=None, world=None, **options):
    """The game ``wumpus trace --rules RULES --seed SEED --json`` plays, as a list of dicts:
    a start line, one per step (what was proven and why, the odds, the choices weighed, the
    action and its reason), an end line."""
    return [_json.loads(line) for line in _core.trace(rules, seed, world, **options)]


def solve(rules="aima", worlds=1000, seed=0, files=None, threads=None, shard=None, **options):
    """The summary ``wumpus solve --json`` gives for the same batch, as a dict: one of the
    project's agents (``agent="risk"``, ``"logic"``, ``"optimal"``...) on games dealt from
    seeds ``seed`` to ``seed + worlds - 1``, or on each world file of ``files``. ``shard="K/N"``
    plays the K-th of N parts; ``wumpus merge`` (or summing) adds the parts up."""
    if files is not None:
        files = [str(f) for f in files]
    return _json.loads(_core.solve(rules, worlds, seed, files, threads, shard, **options))


from .envs import ENV_IDS, register_envs  # noqa: E402

register_envs()
