"""An outside agent plays through the line protocol, and is summed like `wumpus solve`."""

import json
import sys
import textwrap

import pytest

from wumpus_logic import harness

BOT = textwrap.dedent(
    """
    import json, sys
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] != "turn":
            continue
        glitter, bump, mask = message["observation"][2], message["observation"][3], message["action_mask"]
        # Grab what glitters, walk on where the mask allows, turn at a wall or where it does
        # not, and climb out after twelve actions (at the start; elsewhere climbing does
        # nothing).
        choice = 3 if glitter else 5 if message["step"] > 12 else 0 if mask[0] and not bump else 1
        print(json.dumps({"action": choice}) if choice == 0 else ["forward", "turn left", "turn right", "grab", "shoot", "climb"][choice], flush=True)
    """
)


def same_bot(observation, info):
    step = info["moves"] + 1
    return 3 if observation[2] else 5 if step > 12 else 0 if info["action_mask"][0] and not observation[3] else 1


def test_a_program_plays_through_the_line_protocol(tmp_path, capsys):
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    status = harness.main(["--agent-cmd", f"{sys.executable} {bot}", "--rules", "aima", "--worlds", "50", "--json"])
    assert status == 0
    summaries = json.loads(capsys.readouterr().out)
    assert [s.get("player") or s["game"]["agent"] for s in summaries] == ["bot.py", "risk", "logic", "random"]
    mine = summaries[0]
    assert mine["games"] == 50 and sum(mine["endings"].values()) == 50
    # The same agent as a Python callable gets the very same games.
    again = harness.play_batch(same_bot, "aima", 50, 0)
    for key in ("wins", "endings", "mean_score", "mean_moves"):
        assert again[key] == mine[key], key
    # The table shows them side by side.
    text = harness.table(summaries)
    assert "bot.py" in text and "risk" in text and "mean score" in text


def test_a_world_folder_and_the_course_deal(tmp_path):
    for i, text in enumerate(["PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n", "SIZE 4 4\nPIT 1 1\nWUMPUS 3 3\nGOLD 0 3\n"]):
        (tmp_path / f"w{i}.txt").write_text(text)
    summary = harness.play_batch(same_bot, "aima", files=tmp_path)
    assert summary["games"] == 2
    course = harness.play_batch(same_bot, "aima", worlds=20, deal="course")
    assert course["game"]["deal"] == "course" and course["games"] == 20


def test_a_bad_answer_is_refused(tmp_path):
    bot = tmp_path / "bad.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print('jump', flush=True)\n")
    agent = harness.LineAgent([sys.executable, str(bot)])
    try:
        with pytest.raises(harness.AgentFailed, match="seed 0, at step 1") as failed:
            harness.play_batch(agent, "aima", 1, 0)
        assert isinstance(failed.value.__cause__, ValueError)
        assert "jump" in str(failed.value.__cause__)
    finally:
        agent.close()


def test_an_agent_module_of_the_current_folder_plays_and_a_failing_one_exits_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "my_agents.py").write_text(
        "class Climber:\n"
        "    def act(self, observation, info):\n"
        "        return 5\n"
        "def broken(observation, info):\n"
        "    if info['moves'] == 2:\n"
        "        raise KeyError('knowledge')\n"
        "    return 1\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", str(tmp_path))])
    assert harness.main(["--agent", "my_agents:Climber", "--worlds", "5", "--baselines", "logic", "--json"]) == 0
    mine = json.loads(capsys.readouterr().out)[0]
    assert mine["endings"] == {"climbed_out": 5}
    assert harness.main(["--agent", "my_agents:broken", "--worlds", "5", "--seed", "7"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and "raise KeyError('knowledge')" in err
    assert err.rstrip().endswith("wumpus-logic: the agent failed in the game of seed 7, at step 3: KeyError: 'knowledge'")
    assert harness.main(["--agent", "no_such_module:agent", "--worlds", "1"]) == 2
    assert "cannot load the agent 'no_such_module:agent'" in capsys.readouterr().err
