"""Print one command of the README's Quick start block, so CI runs exactly what it says.

Usage: python .ci/quickstart.py play|test
"""

import pathlib
import re
import sys

text = pathlib.Path(__file__).resolve().parent.parent.joinpath("README.md").read_text("utf-8")
section = text.split("## Quick start", 1)[1]
block = re.search(r"```sh\n(.*?)```", section, re.S)
commands = [line for line in block.group(1).splitlines() if line.strip()] if block else []
if len(commands) != 2 or len(sys.argv) != 2 or sys.argv[1] not in ("play", "test"):
    sys.exit("usage: quickstart.py play|test (and the README needs exactly two commands)")
print(commands[0] if sys.argv[1] == "play" else commands[1])
