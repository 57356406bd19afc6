"""The shell example of docs/reversixt.md's "Server and client" section runs as written (on a free port)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).parents[3] / "docs" / "reversixt.md"


def section() -> str:
    text = DOC.read_text()
    start = text.index("## Server and client")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


@pytest.mark.timing
def test_the_shell_example_runs(tmp_path: Path) -> None:
    if shutil.which("bash") is None:
        pytest.skip("bash not found")
    (script,) = re.findall(r"```bash\n(.*?)```", section(), re.S)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(
        ["bash", "-e", "-c", script.replace("7777", str(port))],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    lines = (tmp_path / "result.txt").read_text().splitlines()
    assert lines[0] == "othello8.map" and sorted(line.split("\t")[0] for line in lines[1:]) == ["1", "2"]
    assert "agree with the rules" in run.stdout
