"""The campaign's roster and its index: who is on it, and what the rules need to find without visiting
every member ever created.

The index is five dicts of the Campaign aggregate:

- `member_of`: each member's id (hex) -> [name, place on the roster], to read a command's writes by name;
- `stirred`: for each of the ruleset's `roster_visits`, the members written since its rule last ran
  (name -> place), the only ones it can find anything to do for;
- `open_moves` and `move_of`: each character's open move (roll -> character, character -> roll), the
  last he began;
- `moves_unknown`: who may hold an open move the index does not know (name -> place): those who have
  not begun one since the campaign was restored from a snapshot older than the index.

Plain functions over the aggregate's own state (`roster` and the index): the aggregate keeps those as
plain dicts, so its snapshots and stored events read the same, and calls these from its commands and
its `@event` bodies.
"""

from __future__ import annotations

from typing import Any

from .errors import RuleViolation, UnknownName, Word
from .ids import lookalike_problem, member_id
from .names import lookalike_hint
from .revisions import spoken

#: The campaign's roster index: derived from its events, so that no rule visits every member.
ROSTER_INDEX = ("member_of", "stirred", "open_moves", "move_of", "moves_unknown")


def refuse_new_member(roster: dict[str, dict[str, Any]], campaign: str, name: str, kind: str,
                      player: str | None) -> None:
    """Refuse a member whose name is taken, or whose name or player only looks like another's."""
    if name in roster:
        raise RuleViolation(
            "{kind} {name!r} already exists in {campaign}",
            field="name", kind=Word(roster[name]["kind"]), name=name, campaign=spoken(campaign),
        )
    # Two members (or players) who only look alike would be told apart by no one reading the thread.
    for field, value in (("name", name), ("player", player)):
        problem = lookalike_problem(value) if value is not None else None
        if problem is not None:
            known = roster if field == "name" else {e["player"] for e in roster.values() if e["player"]}
            raise RuleViolation("{value!r} cannot be a {kind}'s {what}: it {problem}{lookalike}", field=field,
                                value=value, kind=Word(kind), what=Word(field), problem=problem,
                                lookalike=lookalike_hint(value, known))


def find_member(roster: dict[str, dict[str, Any]], campaign: str, name: str, kind: str | None,
                field: str) -> dict[str, Any]:
    """The roster entry of `name` (of `kind`, if given); refused, with the names it may have meant, if none."""
    entry = roster.get(name)
    if entry is None or (kind is not None and entry["kind"] != kind):
        known = sorted(n for n, e in roster.items() if kind is None or e["kind"] == kind)
        raise UnknownName(
            "no {kind} named {name!r} in campaign {campaign} (known: {known}){lookalike}", field=field,
            kind=Word(kind or "member"), name=name, campaign=spoken(campaign), known=", ".join(known) or Word("none"),
            lookalike=lookalike_hint(name, known),
        )
    return entry


def rebuilt_index(campaign: str, roster: dict[str, dict[str, Any]], visits: tuple[str, ...]) -> dict[str, Any]:
    """The index of a roster kept without one: what the roster tells is rebuilt; every member counts as
    stirred (a rule that visits more members decides the same), and every member may hold an open move
    the index does not know until he begins his next one."""
    everyone = {name: place for place, name in enumerate(roster)}
    return {
        "member_of": {member_id(campaign, entry["kind"], name).hex: [name, place]
                      for place, (name, entry) in enumerate(roster.items())},
        "stirred": {key: dict(everyone) for key in visits},
        "open_moves": {}, "move_of": {}, "moves_unknown": everyone,
    }


def stir_everyone_for_new_visits(state: dict[str, Any], visits: tuple[str, ...]) -> None:
    """In a snapshot kept before some of the rules in `visits` came to visit only the stirred: every
    member counts as stirred for those, as in `rebuilt_index`."""
    everyone = {name: place for place, name in enumerate(state["roster"])}
    for key in visits:
        state["stirred"].setdefault(key, dict(everyone))


def stir(stirred: dict[str, dict[str, int]], member_of: dict[str, list[Any]], writes: list[list[Any]]) -> None:
    """The members a command wrote (`writes`: aggregate id in hex first) are stirred for every rule."""
    if stirred:
        written = [member_of[w[0]] for w in writes if w[0] in member_of]
        for members in stirred.values():
            members.update(written)


def visited(stirred: dict[str, dict[str, int]], key: str) -> None:
    """The rule under `key` has just visited the members stirred for it: none is, until a command writes one."""
    if key in stirred:
        stirred[key].clear()


def stirred_in_order(stirred: dict[str, int], roster: dict[str, dict[str, Any]], kind: str) -> list[str]:
    """The stirred members of `kind`, in roster order."""
    return [n for n in sorted(stirred, key=stirred.__getitem__) if roster[n]["kind"] == kind]


def begin_move(open_moves: dict[str, str], move_of: dict[str, str], moves_unknown: dict[str, int],
               character: str, roll: str) -> None:
    """`character`'s open move is now the one `roll` begins: his next move closes his last."""
    open_moves.pop(move_of.get(character, ""), None)
    open_moves[roll] = character
    move_of[character] = roll
    moves_unknown.pop(character, None)


def open_move_of(open_moves: dict[str, str], moves_unknown: dict[str, int], roll: str) -> list[str]:
    """Who may have `roll` as his open move, in roster order: the one who began it, if it is still his
    last; else only those whose open move the index does not know (`moves_unknown`)."""
    if roll in open_moves:
        return [open_moves[roll]]
    return sorted(moves_unknown, key=moves_unknown.__getitem__)


def index_agrees(kept: dict[str, Any], folded: dict[str, Any]) -> bool:
    """Does a snapshot's index (`kept`, each of `ROSTER_INDEX` or None) decide as the fold's (`folded`)?

    A campaign restored from an older snapshot rebuilt it wider (`rebuilt_index`): its stirred members
    may be more than the fold's, never fewer (a rule visiting more members decides the same), and each
    open move of the fold's is known to it or its character is among those it visits for unknown ones.
    """
    if kept["member_of"] != folded["member_of"]:
        return False
    if any(kept[key] is None for key in ROSTER_INDEX) or kept["stirred"].keys() != folded["stirred"].keys():
        return False
    unknown = kept["moves_unknown"]
    return (all(kept["stirred"][key].get(name) == place
                for key, exact in folded["stirred"].items() for name, place in exact.items())
            and all(kept["open_moves"].get(roll) == name or name in unknown
                    for roll, name in folded["open_moves"].items())
            and all(kept["move_of"].get(name) == roll or name in unknown for name, roll in folded["move_of"].items()))
