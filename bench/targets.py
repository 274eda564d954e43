"""The targets a run is judged by, each with the issue that set it; a `Row` is one line of the results.

Issue 22's targets, and the older issues' that still hold (import, rebuild, `--at`, dispute,
rebuild's peak RSS: issue 7; odds: issue 20; the campaign page: issue 21), and issue 32's: the server
under load and `run`'s quiet and loaded columns. A row is matched to
the first target of its measure whose rulesets include its own (`target_for`); a row no target
matches is information.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class Row:
    measure: str
    store: str
    ruleset: str
    scale: str
    what: str
    unit: str
    values: list[float] = field(default_factory=list)
    baseline: str | None = None
    baseline_values: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    target: str = ""
    met: bool | None = None
    status: str = "measured"  # measured | info | not available yet | failed
    note: str = ""
    #: Median ms of a 4 KiB write + fsync in the stores' folder just before this row was measured.
    fsync_ms: float | None = None


@dataclass(frozen=True)
class Target:
    """What a row's median ratio (or value) must reach: `low ≤ median ≤ high`, either bound open.

    A target with neither bound is one the issue asks to be measured and shown, not reached.
    """

    measure: str
    on: str  # "ratio" or "value"
    text: str
    issue: int
    low: float | None = None
    high: float | None = None
    rulesets: tuple[str, ...] = ()  # empty: every ruleset

    def met(self, row: Row) -> bool | None:
        samples = row.ratios if self.on == "ratio" else row.values
        if not samples or (self.low is None and self.high is None):
            return None
        median = statistics.median(samples)
        return (self.low is None or median >= self.low) and (self.high is None or median <= self.high)

    def applies(self, row: Row) -> bool:
        return row.measure == self.measure and (not self.rulesets or row.ruleset in self.rulesets)


#: Issue 22's `run` and `flat` targets are stated for these rulesets.
ISSUE_22_RULESETS = ("pirates", "heroes")

TARGETS: dict[str, Target] = {
    # issue 22
    "run": Target("run", "ratio", "≥ 0.85 × bare eventsourcing, same saves (1k, 10k, 100k)", 22, low=0.85,
                  rulesets=ISSUE_22_RULESETS),
    "flat": Target("flat", "ratio", "last 10 % of a 100k campaign within 10 % of the first 10 %", 22,
                   low=0.9, high=1.1, rulesets=ISSUE_22_RULESETS),
    "replay": Target("replay", "ratio", "≥ 0.8 × parse and decide alone (its ceiling), same run", 22, low=0.8),
    "memory": Target("memory", "value", "peak RSS ≤ 150 MB at 1M commands", 22, high=150),
    "startup": Target("startup", "ratio", "≤ 2.5 × importing eventsourcing and pydantic", 22, high=2.5),
    "startup-floor": Target("startup-floor", "ratio", "shown: what the fixed stack makes a one-command post pay, "
                            "against the same imports (no bound)", 22),
    "serve": Target("serve", "ratio", "shown: posts/s, p50/p99 with 20 clients, against `run` (no bound)", 22),
    # issue 32: the server under load (bench/serve.py)
    "serve-sqlite": Target("serve-sqlite", "ratio", "SQLite, 1 process, 20 clients: posts/s ≥ 0.5 × `run` of the same "
                           "moves, same run", 32, low=0.5),
    "serve-p99": Target("serve-p99", "value", "SQLite, 1 process, 20 clients: p99 of a post ≤ 50 ms", 32, high=50),
    "serve-reads": Target("serve-reads", "value", "20 clients reading sheets while 20 post: GET p99 ≤ 30 ms", 32,
                          high=30),
    "serve-pg-1": Target("serve-pg-1", "value", "shown: PostgreSQL, 20 campaigns × 2 clients, 1 process (the ratios' "
                         "base)", 32),
    "serve-pg-2": Target("serve-pg-2", "ratio", "PostgreSQL, 20 campaigns × 2 clients, each campaign's routed to one "
                         "process: 2 processes ≥ 1.6 × 1 process",
                         32, low=1.6),
    "serve-pg-4": Target("serve-pg-4", "ratio", "PostgreSQL, 20 campaigns × 2 clients, routed by campaign: 4 processes "
                         "≥ 2.5 × 1 process, where the machine allows", 32, low=2.5),
    "serve-pg-2-by-player": Target("serve-pg-2-by-player", "ratio", "the same, each player's clients routed to one "
                                   "process: 2 processes ≥ 1.6 × 1 process", 32, low=1.6),
    "serve-pg-4-by-player": Target("serve-pg-4-by-player", "ratio", "the same, routed by player: 4 processes ≥ 2.5 × "
                                   "1 process, where the machine allows", 32, low=2.5),
    "serve-shared": Target("serve-shared", "ratio", "one campaign shared by 2 processes: p99 ≤ 4 × 1 process's", 32,
                           high=4),
    "serve-lost": Target("serve-lost", "value", "one campaign shared by 2 processes: no post lost", 32, high=0),
    "serve-streams-posts": Target("serve-streams-posts", "value", "200 live pages + 200 `/events` streams open: a "
                                  "post's p99 ≤ 50 ms", 32, high=50),
    "serve-streams-reads": Target("serve-streams-reads", "value", "200 live pages + 200 `/events` streams open: GET "
                                  "p99 ≤ 30 ms", 32, high=30),
    "run-quiet": Target("run-quiet", "ratio", "`run` as the user runs it, quiet machine: ≥ 0.85 × bare eventsourcing "
                        "(issue 22's bound)", 32, low=0.85),
    "run-loaded": Target("run-loaded", "ratio", "`run` as the user runs it, one busy core beside it: ≥ 0.85 × bare "
                         "eventsourcing under the same load (issue 22's bound)", 32, low=0.85),
    "suite": Target("suite", "value", "fast tier ≤ 120 s wall", 22, high=120),
    # older issues, still holding
    "run-others": Target("run", "ratio", "≥ 0.8 × bare eventsourcing, same saves", 7, low=0.8),
    "import": Target("import", "ratio", "≥ 0.5 × bare eventsourcing, batches of 100", 7, low=0.5),
    "rebuild": Target("rebuild", "ratio", "≥ 0.6 × bare read-and-decode (at 1M events)", 7, low=0.6),
    "rebuild-memory": Target("rebuild-memory", "value", "peak RSS ≤ 300 MB (at 1M events)", 7, high=300),
    "at": Target("at", "ratio", "median ≤ 10 × current sheet", 7, high=10),
    "dispute": Target("dispute", "ratio", "≤ 2 × replay of the same campaign", 7, high=2),
    "odds": Target("odds", "value", "≤ 50 ms in process", 20, high=0.05),
    "page": Target("page", "value", "≤ 300 ms in process (a campaign of 10k commands)", 21, high=0.3),
    # issue 34: shown, no bound
    "tlog-append": Target("tlog-append", "ratio", "shown: what the Merkle tree adds to each command (no bound)", 34),
    "tlog-proof": Target("tlog-proof", "value", "shown: a proof at 1M commands, O(log n): about 20 hashes (no bound)", 34),
    "tlog-checkpoint": Target("tlog-checkpoint", "value", "shown: `rollbook checkpoint` wall at 1M commands (no bound)", 34),
}


def target_for(row: Row) -> tuple[str, Target] | None:
    """The name and target a row is judged by, or None for a row of information."""
    for name, target in TARGETS.items():
        if target.applies(row):
            return name, target
    return None


def judge(row: Row) -> Row:
    """Fill in the row's target text and whether it is met (a row without numbers is not judged)."""
    found = target_for(row)
    if found is None:
        return row
    _, target = found
    row.target = f"{target.text} (issue {target.issue})"
    if target.low is None and target.high is None and row.status == "measured":
        row.status = "info"
    elif row.status == "measured":
        row.met = target.met(row)
    return row


def summary(rows: list[Row]) -> list[tuple[str, Target, str]]:
    """One verdict per target: met (every row met), not met (any row not), info, failed, or not measured."""
    verdicts = []
    for name, target in TARGETS.items():
        mine = [r for r in rows if target_for(r) == (name, target)]
        judged = [r.met for r in mine if r.status == "measured" and r.met is not None]
        if not mine:
            verdict = "not measured in this run"
        elif any(r.status == "failed" for r in mine):
            verdict = f"failed ({sum(r.status == 'failed' for r in mine)} of {len(mine)} rows)"
        elif judged and all(judged):
            verdict = f"**met** ({len(judged)} of {len(judged)} rows)"
        elif judged:
            verdict = f"**not met** ({judged.count(False)} of {len(judged)} rows not met)"
        elif all(r.status == "info" for r in mine):
            verdict = "info"
        else:
            verdict = mine[0].status
        verdicts.append((name, target, verdict))
    return verdicts
