"""The lowest versions pyproject.toml allows, as a pip constraints file: `name==bound` for every direct
dependency (and the test extras) with a lower bound, so that a bound set too low fails in CI and not
for a user. What `uv pip install --resolution lowest-direct` does, for a machine without uv.

    python3 .ci/lowest.py > constraints.txt && pip install -c constraints.txt -e ".[test]"
"""

import re
import sys
import tomllib
from pathlib import Path

LOWER = re.compile(r"^\s*([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*(?:[^;]*?)(?:>=|==)\s*([0-9][^,;\s]*)")


def lowest(requirements: list[str]) -> dict[str, str]:
    found = {}
    for requirement in requirements:
        match = LOWER.match(requirement)
        if match:
            found[match.group(1).lower()] = match.group(3)
    return found


def main() -> None:
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    requirements = [*project["dependencies"], *project.get("optional-dependencies", {}).get("test", [])]
    for name, version in sorted(lowest(requirements).items()):
        sys.stdout.write(f"{name}=={version}\n")


if __name__ == "__main__":
    main()
