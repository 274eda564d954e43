"""The server's rows of issue 48, side by side with the bare baseline (bench/bareserve.py), in one run.

    python -m bench.groupcommit --rounds 3 --moves 5 --stores sqlite,postgres
    python -m bench.groupcommit --before /tmp/old     # also an older Rollbook (/tmp/old/rollbook), interleaved

Rounds are short and interleaved (each round plays every system on every store in turn, its order
alternating), so a machine shared with other work loads both alike; the load average is printed
with each figure. Measures, each a median over the rounds:

- server CPU per post: one client posting one move after another; the server process's CPU time
  (/proc) over the posts answered, and on PostgreSQL the CPU of the database backends serving
  that process's connections (found by their client ports), so N cores' scaling can be computed;
- posts/s and p99 latency with 20 clients posting into one campaign, and into 20 campaigns (one each).

With `--processes N`, N server processes of each system share the store, client n posting to process
n mod N; the 20-client rows then also give each process's CPU per post (its CPU over the posts of the
whole load) and PostgreSQL's, so the scaling with N cores can be computed.

And, in process, the CPU of one writer transaction of a command's rows, as the library's pool
gives it (the path before) and on the writer's own connection (store/sqlite_recorder.py OwnConnection).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from rollbook.testing.serving import Server, free_port, start

from .serveload import Post, load, plan_moves, prepare

CLIENTS = 20
#: Ticks of /proc's CPU times a second.
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def client_ports(pid: int) -> set[int]:
    """The local ports of the process's TCP connections (to PostgreSQL, among others)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(fd) if fd.is_symlink() else ""
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            parts = line.split()
            if parts[9] in inodes:
                ports.add(int(parts[1].rpartition(":")[2], 16))
    return ports


def backends_of(url: str, pid: int) -> list[int]:
    """The PostgreSQL backends serving the process's connections."""
    import psycopg

    ports = client_ports(pid)
    with psycopg.connect(url.split("?")[0], autocommit=True) as connection:
        rows = connection.execute("SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL")
        return [backend for backend, port in rows if port in ports]


def start_bare(url: str, log: Path) -> Server:
    port = free_port()
    with log.open("ab") as output:
        process = subprocess.Popen([sys.executable, "-m", "bench.bareserve", url, str(port)], stdout=output,
                                   stderr=output, cwd=Path(__file__).parent.parent)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    for _ in range(600):  # up to a minute
        try:
            if httpx.get(f"{server.url}/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the bare server did not answer: {log.read_text()[-2000:]}")


@contextmanager
def fresh_store(kind: str, folder: Path, name: str) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder / f'{name}.db'}"
        return
    from rollbook.testing.plugin import postgres_schema

    with postgres_schema() as url:
        yield url


def seats() -> dict[str, dict[str, list[int]]]:
    """Who posts where: 20 players in one campaign, 20 campaigns of one player, and one player alone (CPU)."""
    return {"one": {"one-0": list(range(CLIENTS))},
            "many": {f"many-{n}": [CLIENTS + n] for n in range(CLIENTS)},
            "cpu": {"cpu-0": [2 * CLIENTS]}}


def database_cpu(url: str, servers: list[Server]) -> float:
    """The CPU so far of the PostgreSQL backends serving the servers' connections."""
    return sum(cpu_seconds(b) for server in servers for b in backends_of(url, server.process.pid))


def measure(system: str, kind: str, folder: Path, moves: int, cpu_moves: int,
            before: Path | None = None, processes: int = 1) -> dict[str, Any]:
    """One round of one system on one store: the CPU per post, then 20 clients on one and on 20 campaigns.
    `system` "before": Rollbook as found in `before` (a folder holding an older `rollbook` package)."""
    layouts = seats()
    with fresh_store(kind, folder, f"{system}-{time.monotonic_ns()}") as url:
        seated = {c: p for layout in layouts.values() for c, p in layout.items()}
        tokens = (prepare(url, seated) if system != "bare"
                  else {f"p{n}": "bare" for players in seated.values() for n in players})
        if system == "bare":
            servers = [start_bare(url, folder / "bare.log") for _ in range(processes)]
        else:
            servers = [start(url, folder / f"{system}.log", env={"PYTHONPATH": str(before)} if before else None)
                       for _ in range(processes)]
        server = servers[0]
        try:
            figures: dict[str, Any] = {"load": os.getloadavg()[0]}
            warm = [Post("p40", "cpu-0", f"warm-{n}", plan_moves(layouts["cpu"], 1)[0][0].body) for n in range(3)]
            first, *later = load([server], tokens, [warm]).answers
            figures["first_ms"] = 1000 * first.seconds
            figures["later_ms"] = 1000 * statistics.median(a.seconds for a in later)
            backends = backends_of(url, server.process.pid) if kind == "postgres" else []
            before = cpu_seconds(server.process.pid), sum(cpu_seconds(b) for b in backends)
            alone = load([server], tokens, plan_moves(layouts["cpu"], cpu_moves)).figures()
            after = cpu_seconds(server.process.pid), sum(cpu_seconds(b) for b in backends)
            figures["cpu_ms"] = 1000 * (after[0] - before[0]) / alone["answered"]
            figures["db_cpu_ms"] = 1000 * (after[1] - before[1]) / alone["answered"] if backends else None
            for layout in ("one", "many"):
                for other in servers[1:]:  # each process's first post, out of the figures like the lone one's
                    load([other], tokens, [[Post("p40", "cpu-0", f"warm-{layout}-{other.url}",
                                                 plan_moves(layouts["cpu"], 1)[0][0].body)]])
                cpu_before = [cpu_seconds(s.process.pid) for s in servers]
                db_before = database_cpu(url, servers) if kind == "postgres" else 0.0
                run = load(servers, tokens, plan_moves(layouts[layout], moves)).figures()
                assert run["answered"] == run["posts"], run
                figures[f"{layout}_rate"], figures[f"{layout}_p99"] = run["posts_per_s"], run["p99_ms"]
                if processes > 1:
                    for n, (s, used) in enumerate(zip(servers, cpu_before)):
                        figures[f"{layout}_cpu_ms_{n}"] = 1000 * (cpu_seconds(s.process.pid) - used) / run["posts"]
                    if kind == "postgres":
                        figures[f"{layout}_db_cpu_ms"] = 1000 * (database_cpu(url, servers) - db_before) / run["posts"]
            return figures
        finally:
            for each in servers:
                each.stop()


def transaction_cpu(transactions: int = 2000, rows: int = 5) -> dict[str, float]:
    """µs of CPU per writer transaction of `rows` rows: through the library's pool (before), on the own connection."""
    from eventsourcing.persistence import StoredEvent

    from rollbook.store import Store
    from rollbook.store.own_connection import own_connection

    figures: dict[str, list[float]] = {"pool": [], "own": []}
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(f"sqlite:///{folder}/t.db")
        recorder = store.app.recorder
        own = own_connection(recorder)
        import uuid

        for turn in range(6):
            for path in ("pool", "own") if turn % 2 else ("own", "pool"):
                batches = [[StoredEvent(uuid.uuid4(), 1, "t:E", b"x" * 300) for _ in range(rows)]
                           for _ in range(transactions // 6)]
                started = time.process_time()
                for batch in batches:
                    if path == "pool":
                        with recorder.datastore.transaction(commit=True) as cursor:
                            recorder._insert_events(cursor, batch)
                    else:
                        own.insert(batch)
                        own.commit()
                figures[path].append(1e6 * (time.process_time() - started) / len(batches))
        own.close()
        store.close()
    return {path: statistics.median(values) for path, values in figures.items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.groupcommit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=5, help="posts of each of the 20 clients a round")
    parser.add_argument("--cpu-moves", type=int, default=40, help="posts of the lone client a round")
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--before", type=Path, help="also measure the Rollbook in this folder (holding a `rollbook` "
                        "package, e.g. `git archive` of an older commit), in the same rounds: before and after")
    parser.add_argument("--processes", default="1", help="server processes of each system on the same store, the "
                        "clients dealt out among them; several counts (1,2) are measured in the same rounds")
    parser.add_argument("--no-transaction", action="store_true", help="skip the in-process writer transaction row")
    args = parser.parse_args(argv)
    systems = ["rollbook", "bare", *(["before"] if args.before else [])]
    turns = [(system, int(count)) for count in args.processes.split(",") for system in systems]
    os.environ.setdefault("ROLLBOOK_SECRETS", tempfile.mkdtemp(prefix="bench-secrets-"))
    results: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-gc-") as folder:
        for round_ in range(args.rounds):
            for kind in args.stores.split(","):
                for system, processes in turns if round_ % 2 == 0 else turns[::-1]:
                    figures = measure(system, kind, Path(folder), args.moves, args.cpu_moves, args.before, processes)
                    print(round_, kind, system, processes, {k: round(v, 2) for k, v in figures.items()
                                                           if v is not None}, flush=True)
                    results.setdefault((kind, system, processes), []).append(figures)
    if not args.no_transaction:
        print(transaction_cpu(), flush=True)
    for (kind, system, processes), rows in sorted(results.items()):
        summary = {key: (statistics.median(r[key] for r in rows), min(r[key] for r in rows), max(r[key] for r in rows))
                   for key in rows[0] if rows[0][key] is not None}
        print(kind, system, processes, {k: tuple(round(x, 2) for x in v) for k, v in summary.items()}, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
