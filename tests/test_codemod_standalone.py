"""The README's command that runs a codemod with libcst's own CLI works as written."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

from conftest import ROOT

BODY = 'import sys\n\n\ndef main():\n    print("x")\n    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main())\n'
#: the comment says what the script does: the docstring's description (a fix writes no other)
SCRIPT = "# Print x.\n" + BODY


def readme_command() -> list[str]:
    text = (ROOT / "README.md").read_text()
    found = re.search(r"`(python -m libcst\.tool codemod [^`]+)`", text)
    assert found, "the README shows no libcst.tool command"
    return shlex.split(found.group(1))


def test_the_readme_codemod_command_runs_from_a_folder_with_the_config(tmp_path):
    shutil.copy(ROOT / "codemods" / ".libcst.codemod.yaml", tmp_path)
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "tool.py"
    script.write_text(SCRIPT)
    command = readme_command()
    assert command[:2] == ["python", "-m"]
    proc = subprocess.run([sys.executable, *command[1:]], cwd=tmp_path, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Transformed 1 files successfully" in proc.stderr
    fixed = script.read_text()
    assert fixed.startswith('"""Print x.\n\nUsage:   tool.py\n')
    assert fixed.endswith(BODY)
