"""The floor under a one-command `rollbook post`: what the fixed design makes any post pay.

    python bench/floor.py MODEL_DIR      # run as a script: it imports nothing of bench or Rollbook's own code

A new process that does only what Rollbook's stack cannot skip for one post, and none of Rollbook's work:
- the start-up baseline's imports (eventsourcing.application, pydantic);
- importing typer, the command line's library (its parsing is left out: Rollbook's CLI parses a post without
  typer's pydantic adapters, cli/plain.py, and that is Rollbook's own code);
- pydantic validating one model of one field: its model machinery, which `import pydantic` alone does not
  load, and its plugin look-up (`importlib.metadata`'s entry points), which the first model triggers;
- eventsourcing defining the event classes of the aggregates the post writes (`MODEL_DIR/floor_model.py`,
  written by `write_model` in the bench's process): a class for each, with the same base classes, the same
  `@event` methods and the same parameters, so the library makes as many frozen dataclasses with as many fields.
  Their common base, `rollbook.domain.aggregate` (53 lines, the command's time on every event), is imported.

Opening the store, loading the aggregates, deciding, writing and the projections' catch-up are left out:
the floor is a lower bound. Comparing it with `python -c "import eventsourcing.application, pydantic"` says
how much of the start-up target (≤ 2.5 × that) the design leaves to Rollbook's own code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the script (the floor's own process) imports nothing of bench
    from .sampling import Bench
    from .stores import StoreRef

#: The floor's model, written next to its compiled bytecode as any installed module has it.
MODEL = "floor_model"


def head(url: str) -> int:
    """The store's last position: a post's events follow it."""
    from rollbook.store import Store

    store = Store.open_to_read(url)
    try:
        return store.head()
    finally:
        store.close()


def measure(bench: Bench, ref: StoreRef, ruleset: str, scale: str, before: int, imports: Callable[[int], float],
            samples: int) -> None:
    """The floor of the post whose events follow `before`, beside the same imports (`measure_startup`'s)."""
    import subprocess
    import time

    from .sampling import IMPORTS, side_by_side
    from .targets import Row

    model = bench.workdir / "floor"
    classes = sum(len(event_classes(real)) for real in prepare(model, ref.url, before).values())
    script = [sys.executable, __file__, str(model)]
    subprocess.run(script, check=True)  # compiles the model once, as the post's warming run does its modules

    def floored(run: int) -> float:
        started = time.perf_counter()
        subprocess.run(script, check=True)
        return time.perf_counter() - started

    bench.say(f"  [{ref.kind}] start-up floor of a post x{samples}")
    ours, theirs = side_by_side(samples, floored, imports)
    bench.add(Row(
        "startup-floor", ref.kind, ruleset, scale,
        "floor of a one-command `rollbook post` under the fixed design (bench/floor.py: the imports, typer, "
        f"one pydantic model validated, the library defining the {classes} event classes of the aggregates the "
        "post writes; nothing of Rollbook's own work), new process, wall", "s",
        ours, f"`python -c \"{IMPORTS}\"`", theirs, [o / t for o, t in zip(ours, theirs, strict=True)],
    ))


def prepare(folder: Path, url: str, after: int) -> dict[str, type[Any]]:
    """Write the floor's model for the post whose events follow position `after` in the store at `url`;
    the real aggregate classes it mirrors, by their names in the model."""
    from rollbook.store import Store

    store = Store.open_to_read(url)
    try:
        written = store.app.recorder.select_notifications(start=after + 1, limit=10_000)
        originators = dict.fromkeys(notification.originator_id for notification in written)
        aggregates = [type(store.app.repository.get(originator)) for originator in originators]
    finally:
        store.close()
    folder.mkdir(parents=True, exist_ok=True)
    return write_model(folder, aggregates)


def write_model(folder: Path, aggregates: list[type[Any]]) -> dict[str, type[Any]]:
    """Write these aggregate classes and their bases, mirrored; the real classes by their names there."""
    from eventsourcing.domain import CommandMethodDecorator

    from rollbook.domain.aggregate import RollbookAggregate

    wanted: list[type[Any]] = []
    for aggregate in aggregates:
        for cls in reversed(aggregate.__mro__):
            if issubclass(cls, RollbookAggregate) and cls is not RollbookAggregate and cls not in wanted:
                wanted.append(cls)
    names = {cls: f"{cls.__name__}{number}" for number, cls in enumerate(wanted)}
    lines = [
        "from __future__ import annotations", "",
        "from eventsourcing.domain import event", "",
        "from rollbook.domain.aggregate import RollbookAggregate", "",
    ]
    for cls in wanted:
        bases = ", ".join(names.get(base, "RollbookAggregate") for base in cls.__bases__ if issubclass(base, RollbookAggregate))
        lines += ["", f"class {names[cls]}({bases}):", "    pass"]
        for attribute, annotation in cls.__dict__.get("__annotations__", {}).items():
            # The library makes a dataclass of an aggregate with annotations, defaults where it has them.
            lines.append(f"    {attribute}: {annotation}" + (" = None" if attribute in cls.__dict__ else ""))
        for attribute, value in cls.__dict__.items():
            if isinstance(value, CommandMethodDecorator):
                lines += [f"    @event({value.event_cls_name!r})", _signature(attribute, value.decorated_func)]
            elif attribute == "__init__":
                lines.append(_signature(attribute, value))
    (folder / f"{MODEL}.py").write_text("\n".join(lines) + "\n")
    return {names[cls]: cls for cls in wanted}


def _signature(name: str, function: Any) -> str:
    """The method, with the real one's parameters and annotations (their text: the dataclasses read only
    that) and a default of None wherever it has a default; its body does nothing."""
    import inspect

    parameters = []
    for parameter in inspect.signature(function).parameters.values():
        text = parameter.name
        if parameter.annotation is not parameter.empty:
            text += f": {parameter.annotation}"
        if parameter.default is not parameter.empty:
            text += " = None"
        parameters.append(text)
    return f"    def {name}({', '.join(parameters)}) -> None:\n        pass"


def event_classes(cls: type[Any]) -> dict[str, type[Any]]:
    """The event classes the library defined on the aggregate class itself (its own and its bases' again)."""
    from eventsourcing.domain import CanMutateAggregate

    return {name: value for name, value in vars(cls).items()
            if isinstance(value, type) and issubclass(value, CanMutateAggregate)}


def floor(model_dir: str) -> None:
    import eventsourcing.application  # noqa: F401  the baseline's imports
    import pydantic
    import typer  # noqa: F401  parsing is left out: typer's own coercion would import pydantic's adapters

    class One(pydantic.BaseModel):
        chests: int

    One.model_validate_json('{"chests": 1}')
    sys.path.insert(0, model_dir)
    __import__(MODEL)


if __name__ == "__main__":
    floor(sys.argv[1])
