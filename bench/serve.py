"""The server under load (issue 32): `python -m bench --measures serve`, or alone `python -m bench.serve`.

Rows, each with the machine's load average and the clients' own CPU in its note (bench/conditions.py):

- SQLite, 1 process, N clients posting their moves into one campaign: posts/s against `rollbook run` of the
  same moves in this process (bench/userrun.py), measured in the same run; p50 and p99 of a post.
- The same with N more clients reading their sheets while the others post: the GETs' p99.
- The same again with live pages and `/events` streams held open on the process (200 of each by default).
- PostgreSQL, 20 campaigns of 2 clients each, on 1, 2 and 4 server processes: posts/s as a ratio to 1 process.
  Routed by campaign (each campaign's clients post to one process: the campaigns run in parallel) and by
  player (each client to one process, as a proxy routing on the token sends it: a campaign's two players may
  write it from two processes).
- PostgreSQL, one campaign shared by 2 processes: posts lost (answered but not stored exactly once, or never
  answered), and its p99 against the same clients on 1 process.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rollbook.testing.serving import applied_ids, serving

from .sampling import Bench
from .serveload import lost_posts, load, open_streams, plan_moves, prepare, seating
from .stores import Stores
from .targets import Row
from .userrun import run_as_user

#: PostgreSQL's scaling rows: this many campaigns, each with this many clients.
CAMPAIGNS, CLIENTS_EACH = 20, 2
#: Server processes of PostgreSQL's scaling rows; the machine's cores say whether the last can show anything.
PROCESSES = (1, 2, 4)
#: How a proxy sends the clients to the processes: each campaign's to one process (routing on the URL's
#: campaign), or each player's to one process (routing on the token, README's `lb_policy header Authorization`:
#: a campaign's two players may then write it from two processes).
BY_CAMPAIGN, BY_PLAYER = "routed by campaign", "routed by player"
ROUTINGS = (BY_CAMPAIGN, BY_PLAYER)
#: The rows only PostgreSQL gives (several processes on one store).
POSTGRES_ONLY = ("serve-pg-1", "serve-pg-2", "serve-pg-4", "serve-pg-2-by-player", "serve-pg-4-by-player",
                 "serve-shared", "serve-lost")
#: Live pages and `/events` streams held open beside the posts (each count, of each kind).
STREAMS = 200


def served(kind: str, stores: Stores, folder: Path, seats: dict[str, list[int]], moves: int, processes: int, *,
           readers: int = 0, streams: int = 0, by_campaign: bool = False) -> dict[str, Any]:
    """One load on a fresh store: its figures, the posts lost, and the streams that stayed open."""
    ref = stores.fresh(f"serve_{processes}")
    env = {"ROLLBOOK_SECRETS": str(folder / "secrets")}
    logs = Path(tempfile.mkdtemp(prefix="serve-logs-", dir=folder))  # this load's own: its retries counted alone
    os.environ.update(env)
    try:
        tokens = prepare(ref.url, seats)
        plans = plan_moves(seats, moves)
        with serving(ref.url, logs, count=processes, env=env) as running:
            if streams:
                first = next(iter(seats))
                paths = [f"/campaigns/{first}/live"] * streams + [f"/campaigns/{first}/events"] * streams
                with open_streams(running[0], tokens["gm"], paths) as held:
                    run = load(running, tokens, plans, readers=readers, by_campaign=by_campaign)
                kept = {"streams_asked": held.asked, "streams_open": held.opened, "stream_news": held.changes}
            else:
                run = load(running, tokens, plans, readers=readers, by_campaign=by_campaign)
                kept = {}
            conflicts = sum(1 for s in running for line in s.logs() if line.get("event") == "command.retry")
        lost = lost_posts(run.answers, applied_ids(ref.url))
        return {"store": kind, "processes": processes, **run.figures(), "lost": lost, "conflict_retries": conflicts,
                **kept, "conditions": run.conditions}
    finally:
        stores.remove(ref)
        shutil.rmtree(logs, ignore_errors=True)


def run_rate(stores: Stores, folder: Path, seats: dict[str, list[int]], moves: int) -> float:
    """`rollbook run` of the same moves, as one command file, in this process, on a store prepared the same way."""
    ref = stores.fresh("serve_run")
    try:
        prepare(ref.url, seats)
        plans = plan_moves(seats, moves)
        lines = [plan[m].as_command() for m in range(moves) for plan in plans]  # the clients' posts, in turns
        path = folder / "same-moves.jsonl"
        path.write_text("".join(json.dumps(c) + "\n" for c in lines))
        return len(lines) / run_as_user(ref.url, path)
    finally:
        stores.remove(ref)


def note(results: list[dict[str, Any]], *extra: Callable[[dict[str, Any]], str]) -> str:
    """Each run's posts answered, retries, posts lost, anything else the row should say, its load and clients' CPU."""
    return "; ".join(
        f"run {n + 1}: " + ", ".join([f"{r['answered']} of {r['posts']} posts answered",
                                      f"client retries {r['client_retries']}",
                                      f"conflict retries {r['conflict_retries']}", f"lost {r['lost']}",
                                      *(e(r) for e in extra), r["conditions"].described()])
        for n, r in enumerate(results))


def values(results: list[dict[str, Any]], figure: str) -> list[float]:
    return [float(r[figure]) for r in results]


def measure_sqlite(bench: Bench, clients: int, moves: int, streams: int = STREAMS) -> None:
    """The single-process rows: posting, reading while posting, and both with streams held open."""
    stores, folder = bench.stores["sqlite"], bench.workdir
    seats = seating(1, clients)
    scale = f"1 campaign, {clients} clients × {moves} posts"
    posting, reading, streaming, rates = [], [], [], []
    for run in range(bench.runs):
        bench.say(f"  [sqlite] {clients} clients posting to 1 process, and `rollbook run` of the same moves #{run + 1}")
        if run % 2 == 0:
            posting.append(served("sqlite", stores, folder, seats, moves, 1))
            rates.append(run_rate(stores, folder, seats, moves))
        else:
            rates.append(run_rate(stores, folder, seats, moves))
            posting.append(served("sqlite", stores, folder, seats, moves, 1))
        bench.say(f"  [sqlite] {clients} reading while {clients} post #{run + 1}")
        reading.append(served("sqlite", stores, folder, seats, moves, 1, readers=clients))
        bench.say(f"  [sqlite] the same with {streams} live pages and {streams} /events streams open #{run + 1}")
        streaming.append(served("sqlite", stores, folder, seats, moves, 1, readers=clients, streams=streams))
    bench.add(Row("serve-sqlite", "sqlite", "pirates", scale, "`rollbook serve`, 1 process, posts/s", "posts/s",
                  values(posting, "posts_per_s"), f"`rollbook run` of the same {clients * moves} moves, in process",
                  rates, [p / r for p, r in zip(values(posting, "posts_per_s"), rates, strict=True)],
                  note=note(posting)))
    bench.add(Row("serve-p99", "sqlite", "pirates", scale, "`rollbook serve`, 1 process, p99 of a post", "ms",
                  values(posting, "p99_ms"), note="the same runs as serve-sqlite's"))
    bench.add(Row("serve", "sqlite", "pirates", scale, "`rollbook serve`, 1 process, p50 of a post", "ms",
                  values(posting, "p50_ms"), note="the same runs as serve-sqlite's"))
    reads = f"{clients} reading their sheets while {clients} post"
    bench.add(Row("serve-reads", "sqlite", "pirates", scale, f"GET of a sheet, p99, {reads}", "ms",
                  values(reading, "read_p99_ms"), note=note(reading, _reads)))
    bench.add(Row("serve", "sqlite", "pirates", scale, f"a post's p99, {reads}", "ms",
                  values(reading, "p99_ms"), note="the same runs as serve-reads'"))
    held = f"{streams} live pages + {streams} `/events` streams open, {reads}"
    bench.add(Row("serve-streams-posts", "sqlite", "pirates", scale, f"a post's p99, {held}", "ms",
                  values(streaming, "p99_ms"), note=note(streaming, _reads, _streams)))
    bench.add(Row("serve-streams-reads", "sqlite", "pirates", scale, f"GET of a sheet, p99, {held}", "ms",
                  values(streaming, "read_p99_ms"), note="the same runs as serve-streams-posts'"))


def _reads(result: dict[str, Any]) -> str:
    return f"{result['reads_ok']} of {result['reads']} GETs answered 200 ({result['reads_per_s']:.0f}/s)"


def _streams(result: dict[str, Any]) -> str:
    return (f"{result['streams_open']} of {result['streams_asked']} streams answered 200 before the load, "
            f"{result['stream_news']} news read on them")


def measure_postgres(bench: Bench, moves: int, clients: int) -> None:
    """Many campaigns over 1, 2 and 4 processes, routed by campaign and by player; one campaign shared by 2
    processes against the same clients on 1."""
    stores, folder = bench.stores["postgres"], bench.workdir
    seats = seating(CAMPAIGNS, CLIENTS_EACH)
    loads = [(1, "")] + [(n, routing) for n in PROCESSES[1:] for routing in ROUTINGS]
    by_load: dict[tuple[int, str], list[dict[str, Any]]] = {key: [] for key in loads}
    shared, alone = [], []
    one = seating(1, clients)
    for run in range(bench.runs):
        for processes, routing in loads if run % 2 == 0 else loads[::-1]:
            bench.say(f"  [postgres] {CAMPAIGNS} campaigns × {CLIENTS_EACH} clients, {processes} process(es) "
                      f"{routing} #{run + 1}")
            by_load[(processes, routing)].append(served("postgres", stores, folder, seats, moves, processes,
                                                        by_campaign=routing != BY_PLAYER))
        bench.say(f"  [postgres] one campaign, {clients} clients, 1 then 2 processes #{run + 1}")
        alone.append(served("postgres", stores, folder, one, moves, 1))
        shared.append(served("postgres", stores, folder, one, moves, 2))
    scale = f"{CAMPAIGNS} campaigns × {CLIENTS_EACH} clients × {moves} posts"
    single = values(by_load[(1, "")], "posts_per_s")
    bench.add(Row("serve-pg-1", "postgres", "pirates", scale, "`rollbook serve`, 1 process, posts/s", "posts/s",
                  single, note=note(by_load[(1, "")], _p99)))
    cores = os.cpu_count() or 1
    for processes, routing in loads[1:]:
        mine = values(by_load[(processes, routing)], "posts_per_s")
        beyond = (f" — {processes} processes on {cores} cores: the machine cannot show this ratio"
                  if processes > cores else "")
        measure = f"serve-pg-{processes}" + ("-by-player" if routing == BY_PLAYER else "")
        bench.add(Row(measure, "postgres", "pirates", scale,
                      f"`rollbook serve`, {processes} processes, {routing}, posts/s", "posts/s", mine,
                      "1 process, same run", single, [m / s for m, s in zip(mine, single, strict=True)],
                      note=note(by_load[(processes, routing)], _p99) + beyond))
    scale = f"1 campaign, {clients} clients × {moves} posts"
    bench.add(Row("serve-shared", "postgres", "pirates", scale, "one campaign shared by 2 processes, p99 of a post",
                  "ms", values(shared, "p99_ms"), "the same clients on 1 process, p99", values(alone, "p99_ms"),
                  [s / a for s, a in zip(values(shared, "p99_ms"), values(alone, "p99_ms"), strict=True)],
                  note=note(shared, _rate) + " | 1 process: " + note(alone, _rate)))
    bench.add(Row("serve-lost", "postgres", "pirates", scale, "one campaign shared by 2 processes, posts lost",
                  "posts", values(shared, "lost"), note="the same runs as serve-shared's"))


def _p99(result: dict[str, Any]) -> str:
    return f"p50/p99 {result['p50_ms']:.0f}/{result['p99_ms']:.0f} ms"


def _rate(result: dict[str, Any]) -> str:
    return f"{result['posts_per_s']:.0f} posts/s, p50/p99 {result['p50_ms']:.0f}/{result['p99_ms']:.0f} ms"


def measure_serve(bench: Bench, kind: str, clients: int, moves: int, streams: int = STREAMS) -> None:
    """`python -m bench`'s rows of this measure for one kind of store."""
    if kind == "sqlite":
        measure_sqlite(bench, clients, moves, streams)
    else:
        measure_postgres(bench, moves, clients)


def main(argv: list[str]) -> int:
    from .report import machine, table

    parser = argparse.ArgumentParser(prog="python -m bench.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--moves", type=int, default=10, help="moves each client posts")
    parser.add_argument("--streams", type=int, default=STREAMS, help="live pages (and as many /events streams)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--json", action="store_true", help="the rows as JSON, not a table")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        bench = Bench(runs=arguments.runs, workdir=Path(work), stores={})
        for kind in arguments.stores.split(","):
            stores = Stores(kind, Path(work))
            reason = stores.available()
            if reason is not None:
                print(f"{kind}: skipped ({reason})", file=sys.stderr)
                continue
            bench.stores[kind] = stores
            measure_serve(bench, kind, arguments.clients, arguments.moves, arguments.streams)
    if arguments.json:
        from .report import as_json

        print(as_json(bench.rows, "python -m bench.serve " + " ".join(argv), machine()))
    else:
        print(table(bench.rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
