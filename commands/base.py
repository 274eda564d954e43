"""What every command has, and how a command type finds its handler.

A command is a pydantic model with a literal `type`; its handler is a thin function
that turns it into domain calls at a `Table`. The registry here collects both, so the
JSON Schema (`rollbook schema`), the parser and the service all read one list. Most
handlers are one domain call with the command's fields as they are: `forwards` maps such
a model to its domain function, and only a handler that does more is written out.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import AfterValidator, AliasChoices, AwareDatetime, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from ..domain.dice import MAX_SALT
from ..domain.errors import N_
from ..domain.ids import id_problem
from ..domain.table import Table

#: A player's or auditor's name: no spaces, colons or control characters (it is shown on terminals).
ACTOR_NAME = r"[^\s:\x00-\x1f\x7f-\x9f]+"
ACTOR_PATTERN = rf"^(gm|player:{ACTOR_NAME}|auditor:{ACTOR_NAME})$"
NAME = Field(min_length=1, max_length=200)


def damage_named(name: str, *, ge: int, le: int, description: str) -> Any:
    """A take_damage command's damage under the game's own word for it (`harm`, `amount`), taken as `damage` too,
    the name every game shares: a post or a chat command need not know each game's word. `description` says
    so (its whole sentence is the catalog's message)."""
    return Field(ge=ge, le=le, validation_alias=AliasChoices(name, "damage"), description=description)


def _plain_id(value: str) -> str:
    problem = id_problem(value)
    if problem is not None:
        # A type and values of its own, not a ValueError's text: the reason is said in its reader's language.
        raise PydanticCustomError("plain_id", "cannot be an id: it {problem}", {"problem": problem})
    return value


#: A campaign's or command's id: no path component, control character or look-alike (domain/ids.py).
PlainId = Annotated[str, AfterValidator(_plain_id)]


def _gm_only_mark(schema: dict[str, Any], model: type[Command]) -> None:
    """`x-gm-only` on the schema of a command the GM alone issues, as on a field only he may give."""
    if model.gm_only:
        schema["x-gm-only"] = True


class Command(BaseModel):
    """Fields common to every command line of a command file."""

    # Built on first use: a `post` validates one command, and building all of a ruleset's models
    # when its module is imported was start-up time that it did not need.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, json_schema_extra=_gm_only_mark)

    type: str
    campaign: PlainId | None = Field(
        default=None, min_length=1, max_length=200, pattern=r"^[^@\s]+$",
        description=N_("The campaign's id; may be filled by --campaign."),
    )
    actor: str = Field(
        default="gm", pattern=ACTOR_PATTERN,
        description=N_("Who issues it: gm, player:NAME or auditor:NAME."),
    )
    id: PlainId | None = Field(
        default=None, min_length=1, max_length=200, pattern=r"^[^#\s]+$",
        description=N_("The command's id; rolls are ID, ID#2, ... A recorded id is never applied twice."),
    )
    at: AwareDatetime | None = Field(
        default=None, description=N_("When it happened (ISO-8601 with a time zone); events carry it.")
    )
    dice: list[int] | None = Field(
        default=None, max_length=1000,
        description=N_("Faces rolled elsewhere, used instead of rolling, in the documented order."),
    )
    salt: str | None = Field(
        default=None, max_length=MAX_SALT,
        description=N_("The player's salt for the campaign's dice (the post's number and a few random words, say): "
        "faces are HMAC(seed, campaign:salted:place:cursor:salt), fixed by the committed seed and the salt alone, "
        "so no one can foresee or move them; a salt is used once per seed (a second command with it is refused)."),
    )
    commitment: str | None = Field(
        default=None, pattern=r"^[0-9a-f]{64}$",
        description=N_("The campaign's seed commitment the salt was chosen under (its SHA-256 in hex, as `rolls --json` "
        "gives each roll's `commitment`): if the seed was changed since (rotate_seed, a chapter's end), the command "
        "is refused and nothing is written, so a rotation can only veto a salted roll, never move it. Absent: nothing "
        "is checked."),
    )
    via: str | None = Field(
        default=None, max_length=100, pattern=r"^(discord|telegram):[0-9]{1,30}$",
        description=N_(
            "Where a command posted from a chat came from: `discord:<interaction id>`, `telegram:<update id>`. "
        "The server sets it (a poster cannot): it ties the command to what the chat delivered, kept beside it "
        "(`verify --discord-key` holds the command to it). Absent from every other command, and from chat posts "
        "recorded before it, whose id said it (`discord-<interaction id>`)."
        ),
    )
    seen: int | None = Field(
        default=None, ge=0, le=10**12,
        description=N_("How many commands the campaign held when the poster chose the salt. Accepted as older clients "
        "send it, and recorded; nothing is refused for it: a salted roll's faces no longer depend on what came first."),
    )

    #: Rulesets in which this command exists; None for every ruleset (see `boundary`).
    rulesets: ClassVar[frozenset[str] | None] = None
    #: The timeline boundary a common command starts or ends ("chapter", "issue", ...): it is
    #: offered to the rulesets whose vocabulary (`Ruleset.boundaries`) has it, and to no other.
    boundary: ClassVar[str | None] = None
    #: Only the GM (and, where said, the owner) may issue it.
    gm_only: ClassVar[bool] = False
    #: False: it never throws dice, so a form asks no salt, faces or odds for it. None: as the rules decide it
    #: (a form asks them, deciding the command as it stands up to its dice).
    throws_dice: ClassVar[bool | None] = None

    def payload(self) -> dict[str, Any]:
        """The command as recorded: JSON-compatible, without unset optional fields."""
        return self.model_dump(mode="json", exclude_none=True)


class CreatesCharacter(Command):
    """What a ruleset's character creation starts from, where the GM alone creates (he approves every sheet): the
    character's name and the player who owns him; the ruleset's own model adds his sheet and says its rules."""

    type: Literal["create_character"] = "create_character"
    gm_only = True
    name: str = NAME
    player: str | None = Field(default=None, min_length=1, max_length=200, description=N_("The owning player."))


C = TypeVar("C", bound=Command)
Handler = Callable[[Any, Table], None]

#: command type -> (model, handler) of the commands every ruleset may have; filled by @handles.
COMMON: dict[str, tuple[type[Command], Handler]] = {}
#: ruleset -> command type -> (model, handler) of each ruleset's own commands; filled by @handles.
HANDLERS: dict[str, dict[str, tuple[type[Command], Handler]]] = {}


def command_type(model: type[Command]) -> str:
    return str(model.model_fields["type"].default)


def handles(model: type[C]) -> Callable[[Callable[[C, Table], None]], Callable[[C, Table], None]]:
    """Register `function` as the handler of `model`'s command type in its rulesets (or in all)."""

    def register(function: Callable[[C, Table], None]) -> Callable[[C, Table], None]:
        if model.rulesets is None:
            COMMON[command_type(model)] = (model, function)
        for name in model.rulesets or ():
            HANDLERS.setdefault(name, {})[command_type(model)] = (model, function)
        return function

    return register


def forwards(
    decisions: Mapping[type[Command], Callable[..., None]], *, fields: Mapping[str, str] | None = None
) -> None:
    """Register, for each model, the handler that calls its domain function at the table with the
    command's fields: `decide(table, name=command.name, ...)` for every parameter after the table.
    `fields` names the field for a parameter the rules call otherwise (`{"name": "character"}`): it is
    read only where the model has no field of the parameter's own name.

    A parameter the model has no field for is an error here, at import, never a default taken
    silently in play: such a command gets a handler written out.
    """
    for model, decide in decisions.items():
        handles(model)(_forward(model, decide, fields or {}))


def _forward(model: type[Command], decide: Callable[..., None], fields: Mapping[str, str]) -> Handler:
    read = {name: name if name in model.model_fields else fields.get(name, name)
            for name in tuple(inspect.signature(decide).parameters)[1:]}
    unknown = [name for name, field in read.items() if field not in model.model_fields]
    if unknown:
        raise TypeError(
            f"{decide.__module__}.{decide.__qualname__} takes {', '.join(unknown)}, which {model.__name__} "
            "has no field for: write its handler with @handles"
        )

    def forward(command: Command, table: Table) -> None:
        decide(table, **{name: getattr(command, field) for name, field in read.items()})

    return forward
