"""`python -m bench.generate RULESET SIZE [--seed N]`: print a generated campaign (JSON Lines).

`python -m bench.generate --list` names the rulesets that have a generator in this build.
"""

from __future__ import annotations

import argparse
import sys

from . import available, generate


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.generate", description=__doc__)
    parser.add_argument("ruleset", nargs="?")
    parser.add_argument("size", nargs="?", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--list", action="store_true", help="the rulesets that can be generated")
    args = parser.parse_args(argv)
    import logging

    import structlog

    # The referee's in-memory store logs each command it tries; only the campaign goes to stdout.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    if args.list or args.ruleset is None:
        print("\n".join(available()))
        return 0
    if args.ruleset not in available():
        parser.error(f"no generator for {args.ruleset!r} in this build (have: {', '.join(available())})")
    sys.stdout.buffer.write(generate(args.ruleset, args.size, args.seed).jsonl())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
