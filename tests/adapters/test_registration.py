"""``import gridarena`` registers the Gymnasium ids without importing Gymnasium, and every render mode
either works or is refused in one line (issue 32)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from gridarena.core.errors import SpecError

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from gridarena.adapters.pettingzoo import env as pettingzoo_env  # noqa: E402


def run(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter (a new ``sys.modules``), its output captured."""
    command = [sys.executable, "-c", textwrap.dedent(code)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("order", ["gridarena first", "gymnasium first"])
def test_import_gridarena_registers_the_ids(order: str) -> None:
    imports = "import gridarena, gymnasium" if order == "gridarena first" else "import gymnasium, gridarena"
    done = run(f"""
        import sys
        import gridarena
        lazy = "gymnasium" not in sys.modules
        {imports}
        env = gymnasium.make("gridarena/isolation-v0")
        observation, info = env.reset(seed=1)
        print(lazy, observation.shape, sorted(k for k in gymnasium.registry if k.startswith("gridarena/")))
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True (3, 7, 7) ['gridarena/iceandfire-v0', 'gridarena/isolation-v0'")


def test_without_gymnasium_import_gridarena_still_works() -> None:
    done = run("""
        import importlib.abc, sys

        class Absent(importlib.abc.MetaPathFinder):  # as if the rl extra were not installed
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] == "gymnasium":
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)
                return None

        sys.meta_path.insert(0, Absent())
        import gridarena
        print(gridarena.make("isolation").num_players)
        try:
            import gymnasium
        except ModuleNotFoundError as exc:
            print("absent:", exc.name)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "absent:", "gymnasium"]


@pytest.mark.parametrize("mode", [None, "ansi", "rgb_array", "ansi_list", "rgb_array_list"])
def test_the_render_modes_that_work(mode: str | None) -> None:
    env = gymnasium.make("gridarena/isolation-v0", game="isolation(width=5,height=5)", render_mode=mode)
    env.reset(seed=3)
    env.step(int(env.unwrapped.action_masks().argmax()))
    frame = env.render()
    if mode is None:
        assert frame is None
    elif mode == "ansi":
        assert isinstance(frame, str) and "a b c d e" in frame
    elif mode == "rgb_array":
        assert frame.ndim == 3 and frame.shape[2] == 3
    else:
        assert isinstance(frame, list) and len(frame) == 2  # the reset's frame and the step's


@pytest.mark.parametrize("mode", ["human", "depth_array", "rgb", ""])
def test_every_other_render_mode_is_one_line(mode: str) -> None:
    for make in (
        lambda: gymnasium.make("gridarena/isolation-v0", render_mode=mode),
        lambda: pettingzoo_env("isolation", render_mode=mode),
    ):
        with pytest.raises(SpecError) as refused:
            make()
        message = str(refused.value)
        assert "\n" not in message and repr(mode) in message and "'ansi'" in message
