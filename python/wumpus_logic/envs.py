"""Gymnasium environments of the wumpus games (one class, :class:`WumpusEnv`, for every rule
set) and their registration.

Observations and actions (order fixed, as ``wumpus_logic.spaces(rules)`` lists them):

- ``aima`` (the textbook's rules): ``Discrete(6)``: forward, turn left, turn right, grab,
  shoot, climb; observation ``MultiBinary(5)``: [stench, breeze, glitter, bump, scream].
- ``grid`` (compass moves): ``Discrete(10)``: north, east, south, west, fire north, fire east,
  fire south, fire west, grab, climb; observation as under ``aima``.
- ``cave`` (the classic cave): ``Discrete(6)``: move through tunnel 1, 2, 3, shoot one room
  through tunnel 1, 2, 3; observation ``MultiDiscrete([rooms, 2, 2, 2])``: [room (0-based),
  stench, draft, bats].
- ``maze`` (caves.dat): ``Discrete(6)``: move through tunnel 1, 2, 3, toss a grenade through
  tunnel 1, 2, 3; observation ``MultiBinary(3)``: [stench, draft, bats].

``gym.make(id, observation=...)`` chooses what each step shows:

- ``"percepts"`` (the default): the vectors above, this turn's percepts alone.
- ``"memory"``: a flat ``float32`` vector: planes (one value a place), then in the caves the
  tunnels known, then scalars. ``env.unwrapped.layout`` is ``(planes, shape, scalars)``:
  ``obs[:prod(shape)].reshape(shape)`` gives the planes back, ``obs[prod(shape):]`` the
  scalars in ``scalars``' order. On the grid the planes are shaped ``(planes, rows,
  columns)`` (the largest board the player may be on, when its size is hidden): ``here`` (1
  where the player stands), ``visited``, ``breeze``, ``stench``, ``glitter`` (perceived there,
  on the latest visit); the scalars are this turn's percepts (``now_stench``,
  ``now_breeze``, ``now_glitter``, ``now_bump``, ``now_scream``) and what the player knows that
  lasts: ``arrow`` (1 while it is held), ``gold`` (1 while carried), ``wumpus_dead`` (1 once
  the scream was heard), ``at_start`` (1 at the way out), and under the textbook's rules
  ``facing_north`` to ``facing_west``. In a cave the planes are shaped ``(planes + rooms,
  rooms)``: ``here``, ``visited``, ``draft``, ``bats``, ``stench``, then a row a room of the
  tunnels known from it (1 where one leads to that room); the scalars ``now_stench``,
  ``now_draft``, ``now_bats`` and ``arrows`` (left, over 5; not in the maze, which never tells).
  A maze cave is known by its name: caves that share a name share a slot.
- ``"knowledge"``: the memory, and what the knowledge base proves of each place as planes
  after the memory's: ``proven_safe``, ``proven_pit``, ``proven_wumpus`` (in the caves
  ``proven_bats`` too), each 0 or 1, and the exact odds ``p_pit``, ``p_wumpus`` (``p_bats``),
  ``p_death``: 0 or 1 where proven, the chance counted over every layout that fits what was
  perceived where logic leaves the place open, -1 where nothing was computed. It is worked
  out once a step, for the observation and the mask alike.

Rewards are the change in the game's score times ``reward_scale`` (by default the rule set's
scale for learners, about one over a win's points: 0.001 on the grid and under the textbook's
rules, 0.01 in the classic cave, 1 in the maze, which pays 1 for a win), so that a learner's
value estimates fit the returns; ``reward_scale=1`` pays raw points. The grid charges each
action as it is taken; the cave pays its score at the end. ``info`` carries ``score`` (the
score so far in raw points: the final score at the end; in the maze 1 for a win),
``outcome`` (None while the game goes on), ``action_mask`` (an ``int8`` flag an action: 1 when
what the player perceived proves the action cannot kill this turn, and with
``mask="useful"`` also that it can do something: no known wall, no shot without an arrow, no
grab without glitter, no climb away from the way out), ``at``, ``facing``, ``moves``,
``seed``. ``observation_dict=True`` makes the observation a dict ``{"observations": ...,
"action_mask": ...}``, as RLlib's action-masking models and PettingZoo-style code read it.
"""

import json

import gymnasium as gym
import numpy as np
from gymnasium import spaces as gspaces

from . import _core
from .render import draw

#: The registered ids, by rule set: one a rule set of the library's catalogue
#: (``wumpus_logic/Aima-v0``, ``Grid-v0``, ``Cave-v0``, ``Maze-v0``).
ENV_IDS = {r["name"]: f"wumpus_logic/{r['name'].capitalize()}-v0" for r in json.loads(_core.catalogue())["rules"]}

#: Steps after which an episode is truncated (``max_episode_steps``) unless told otherwise.
MAX_EPISODE_STEPS = 1000


#: The observation modes, as ``gym.make(id, observation=...)`` names them.
OBSERVATIONS = ("percepts", "memory", "knowledge")


def observation_space(rules, places=20, layout=None):
    """The observation space of one game of ``rules``: the percepts' (``layout`` None), or a
    memory's or knowledge's of ``layout`` (``(planes, shape, scalars)``, as ``Game.layout()``)."""
    if layout is not None:
        # Flat, as Stable-Baselines3's policies take a vector: the planes, then the scalars.
        size = int(np.prod(layout[1])) + len(layout[2])
        return gspaces.Box(low=-1.0, high=1.0, shape=(size,), dtype=np.float32)
    _, names, nvec = _core.spaces(rules, places)
    if all(n == 2 for n in nvec):
        return gspaces.MultiBinary(len(names))
    return gspaces.MultiDiscrete(np.array(nvec), dtype=np.int8)


def mask_kind(mask):
    """The kind of action mask ``mask`` names: ``"harmless"`` (also ``True``), ``"useful"``,
    or None (``False``: no mask)."""
    if mask is True or mask == "harmless":
        return "harmless"
    if mask == "useful":
        return "useful"
    if mask is False or mask is None:
        return None
    raise ValueError(f"mask {mask!r} is none of True, False, 'harmless', 'useful'")


def default_reward_scale(rules):
    """The rule set's reward scale for learners (the catalogue's ``reward_scale``)."""
    for r in json.loads(_core.catalogue())["rules"]:
        if r["name"] == rules:
            return r["reward_scale"]
    raise ValueError(f"there is no rule set {rules!r}")


class WumpusEnv(gym.Env):
    """One wumpus game as a Gymnasium environment.

    ``reset(seed=S)`` deals the world ``wumpus play --rules RULES --seed S`` deals with the
    same options (``size``, ``pit_prob``, ``scoring``, ``deal``, ``map``, ``variant``);
    ``reset(options={"world": PATH})`` plays a world file. ``mask`` is ``"harmless"`` (or
    ``True``, the default), ``"useful"`` or ``False`` (no mask: faster); ``agent`` names the
    reasoning agent behind :meth:`hint`; ``observation`` is ``"percepts"``, ``"memory"`` or
    ``"knowledge"`` (above); ``reward_scale`` multiplies the points paid (above).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, rules="aima", render_mode=None, mask=True, observation="percepts", reward_scale=None,
                 observation_dict=False, **options):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is none of {self.metadata['render_modes']}")
        self.rules = rules
        self.render_mode = render_mode
        self.mask = mask_kind(mask)
        self.observation = observation
        self.reward_scale = default_reward_scale(rules) if reward_scale is None else float(reward_scale)
        self.observation_dict = bool(observation_dict)
        self.options = options
        self.game = _core.Game(rules, 0, observation=observation, **options)
        self.action_names, self.observation_names, _ = _core.spaces(rules, self.game.places)
        self.layout = self.game.layout()
        if self.layout is not None:
            self.observation_names = list(self.layout[0]) + list(self.layout[2])
        self.action_space = gspaces.Discrete(len(self.action_names))
        inner = observation_space(rules, self.game.places, self.layout)
        if self.observation_dict:
            self.observation_space = gspaces.Dict({
                "observations": inner,
                "action_mask": gspaces.Box(0, 1, shape=(len(self.action_names),), dtype=np.int8),
            })
        else:
            self.observation_space = inner
        self._board = None

    def _mask(self):
        return np.asarray(self.game.action_mask(useful=self.mask == "useful"), dtype=np.int8)

    def _obs(self):
        obs = self.game.observation()
        if self.layout is None:
            obs = np.asarray(obs, dtype=np.int8)
        if self.observation_dict:
            return {"observations": obs, "action_mask": self._mask()}
        return obs

    def _info(self):
        g = self.game
        info = {
            "score": g.score_so_far,
            "outcome": g.outcome,
            "at": g.at,
            "facing": g.facing,
            "moves": g.moves,
            "seed": g.seed,
        }
        if self.mask:
            info["action_mask"] = self._mask()
        return info

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        world = (options or {}).get("world")
        if seed is None:
            # Drawn from the environment's own generator, so a seeded environment replays.
            seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game.reset(seed, None if world is None else str(world))
        if self.layout is not None and self.game.layout() != self.layout:
            raise ValueError(
                f"the world {world} is {self.game.grid_size}: this environment's observations are "
                f"shaped for {self.layout[1]}; make one for this size"
            )
        self._board = None
        return self._obs(), self._info()

    def step(self, action):
        reward = self.game.step(int(action)) * self.reward_scale
        return self._obs(), float(reward), self.game.over, False, self._info()

    def action_masks(self):
        """One flag an action, ``True`` where what the player perceived proves the action
        cannot kill this turn (and with ``mask="useful"`` can do something): sb3-contrib's
        ``MaskablePPO`` reads this."""
        return np.asarray(self.game.action_mask(useful=self.mask == "useful"), dtype=bool)

    def knowledge(self):
        """What the player knows now, as numpy arrays by name: the memory's planes and scalars
        and what the logic agent proves of each place with the exact odds (``Game.knowledge``);
        no decision is made."""
        return self.game.knowledge()

    def hint(self):
        """The reasoning agent's next step, not taken: the step line of ``trace --json`` as a
        dict (``learned`` with the observations behind each proof, ``proven_safe``,
        ``proven_pit``, ``proven_wumpus``, ``odds``, ``choices``, ``action``, ``rule``,
        ``reason``)."""
        return self.game.hint()

    def hint_action(self):
        """The number of the action the reasoning agent would take."""
        return self.game.hint_action()

    def follow_hint(self):
        """Takes the reasoning agent's action (even one no action number names, such as a
        cave's crooked arrow) outside the Gymnasium loop; returns the reward (scaled)."""
        return float(self.game.follow_hint()) * self.reward_scale

    def render(self):
        if self.render_mode == "ansi":
            return self.game.render_text()
        if self.render_mode == "rgb_array":
            if self._board is None:
                self._board = json.loads(self.game.board())
            return draw(self._board, json.loads(self.game.hidden()), self.game.at, self.game.facing)
        return None


def register_envs():
    """Registers every id of :data:`ENV_IDS` (with its vector entry point); safe to call
    again."""
    for rules, env_id in ENV_IDS.items():
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point="wumpus_logic.envs:WumpusEnv",
            vector_entry_point="wumpus_logic.vector:WumpusVectorEnv",
            kwargs={"rules": rules},
            max_episode_steps=MAX_EPISODE_STEPS,
        )
