"""The server under load: `python -m bench.serve` — 20 clients posting at once, against `rollbook run`.

For SQLite with one `rollbook serve` process and PostgreSQL with two, every client posts its
player's moves and one bid for a once-only limit (testing/serving.py's plan); the same
commands, as one command file, are then applied by `rollbook run` to a store prepared the
same way, in the same run. The figures go in RESULTS.md between the `bench:serve` markers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rollbook.testing.serving import applied_ids, load, plan, prepare, serving

from .measures import Bench
from .stores import Stores
from .targets import Row

RESULTS = Path(__file__).with_name("RESULTS.md")
START, END = "<!-- bench:serve:start -->", "<!-- bench:serve:end -->"


def cli_run(url: str, lines: str, folder: Path) -> float:
    """`rollbook run` of the same commands in a new process: its wall time."""
    path = folder / "same-commands.jsonl"
    path.write_text(lines)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rollbook.cli", "-q", "run", str(path), "--store", url, "--allow-future"],
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: the file's losing bids are refused, and the run stops at the first
        raise RuntimeError(done.stderr)
    return seconds


def measure(kind: str, servers: int, clients: int, moves: int, folder: Path,
            stores: Stores | None = None) -> dict[str, Any]:
    stores = stores or Stores(kind, folder)
    served, cli = stores.fresh("served"), stores.fresh("cli")
    env = {"ROLLBOOK_SECRETS": str(folder / "secrets")}
    os.environ.update(env)
    tokens = prepare(served.url, clients)
    plans = plan(clients, moves)
    with serving(served.url, folder, count=servers, env=env) as running:
        run = load(running, tokens, plans)
        conflicts = sum(1 for s in running for line in s.logs() if line.get("event") == "command.retry")
    counts = Counter(applied_ids(served.url))
    assert all(c == 1 for c in counts.values()), "a command applied twice"
    figures = run.figures()
    # The CLI gets the moves only: a file stops at its first refusal, and all but one bid are refused.
    prepare(cli.url, clients)
    moves_only = [p.as_command() for n in range(moves) for p in (plans_[n] for plans_ in plans)]
    seconds = cli_run(cli.url, "".join(json.dumps(c) + "\n" for c in moves_only), folder)
    stores.remove(served)
    stores.remove(cli)
    return {"store": kind, "servers": servers, "clients": clients, **figures, "conflict_retries": conflicts,
            "cli_commands": len(moves_only), "cli_per_s": len(moves_only) / seconds}


def servers_for(kind: str) -> int:
    """One process on SQLite (a single writer), two on PostgreSQL (their conflicts are part of the figure)."""
    return 1 if kind == "sqlite" else 2


def measure_serve(bench: Bench, kind: str, clients: int, moves: int) -> None:
    """`python -m bench`'s rows of this measure: posts/s against `run` of the same moves, then p50 and p99."""
    results = []
    for run in range(bench.runs):
        bench.say(f"  [{kind}] {clients} clients posting to rollbook serve #{run + 1}")
        results.append(measure(kind, servers_for(kind), clients, moves, bench.workdir, bench.stores[kind]))
    first = results[0]
    scale = f"{clients} clients × {moves + 1} posts"
    retries = (f"client retries {', '.join(str(r['client_retries']) for r in results)}; conflict retries "
               f"{', '.join(str(r['conflict_retries']) for r in results)}")
    bench.add(Row(
        "serve", kind, "pirates", scale, f"`rollbook serve` ({first['servers']} process(es)), posts/s", "posts/s",
        [float(r["posts_per_s"]) for r in results],
        f"`rollbook run` of the same {first['cli_commands']} moves, new process, commands/s",
        [float(r["cli_per_s"]) for r in results],
        [float(r["posts_per_s"]) / float(r["cli_per_s"]) for r in results], note=retries,
    ))
    for figure in ("p50", "p99"):
        bench.add(Row("serve", kind, "pirates", scale, f"`rollbook serve`, {figure} latency of a post", "ms",
                      [float(r[f"{figure}_ms"]) for r in results]))


def table(rows: list[dict[str, object]], stamp: str) -> str:
    lines = [
        "## Server under load (`python -m bench.serve`)", "", stamp, "",
        "Each client posts its player's moves one after another, then one bid (as the GM) for a once-only limit all "
        "race for; a post that gets 429/503 or no answer is retried with its Idempotency-Key (client retries). "
        "Conflict retries: commands a server decided again because another server changed the campaign first. "
        "`rollbook run`: the same moves as one command file, in a new process (start-up included), on a store "
        "prepared the same way.", "",
        "| store | servers | clients | posts | posts/s | p50 ms | p99 ms | client retries | conflict retries "
        "| `rollbook run`, same moves: commands/s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['store']} | {r['servers']} | {r['clients']} | {r['posts']} | {r['posts_per_s']:.0f} | "
                     f"{r['p50_ms']:.0f} | {r['p99_ms']:.0f} | {r['client_retries']} | {r['conflict_retries']} | "
                     f"{r['cli_per_s']:.0f} ({r['cli_commands']} commands) |")
    return "\n".join(lines) + "\n"


def write(section: str) -> None:
    text = RESULTS.read_text()
    block = f"{START}\n{section}{END}"
    if START in text:
        text = text[:text.index(START)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    RESULTS.write_text(text)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.serve", description=__doc__)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--moves", type=int, default=10, help="moves each client posts")
    parser.add_argument("--stores", default="sqlite,postgres")
    arguments = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for kind in arguments.stores.split(","):
            reason = Stores(kind, Path(work)).available()
            if reason is not None:
                print(f"{kind}: skipped ({reason})")
                continue
            rows.append(measure(kind, servers_for(kind), arguments.clients, arguments.moves, Path(work)))
            print(rows[-1])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    write(table(rows, f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · commit {commit} · "
                      f"{os.cpu_count()} CPUs (shared with other work while measured)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
