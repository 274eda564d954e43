"""A stored command told outside Rollbook: its line in words, its dice, what it changed, its proof.

One `Told` per command, read from what its transaction stored (never from what was asked), then
rendered for where it goes: `text` (anywhere), `markdown` (Discourse, GitHub, Matrix), `bbcode`
(phpBB, MyBB), `discord` (the thread's message: Discord's own markdown, with `-#` small lines) and
`as_json` (the generic webhook). Names and other text a player typed (a salt, a ruling's reason, an
id) are escaped for the format by `markup.py`, so a character called `**Bo**` or `[url=…]` is shown as
written, never as markup.

The line is in the campaign's language (its `language` option, English unless set): what the group reads
together. The template is translated first (language/__init__.py), then the format escapes the user's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote
from uuid import UUID

from ..domain.sheet_layout import Phrase, Term, listed
from ..projections.sheets import in_words, key_figures
from ..domain.revisions import REVISION_MARK, revision_of
from ..domain.errors import CommandRejected
from ..domain.ids import campaign_id, member_id
from ..domain.options import ENGLISH
from ..domain.transparency.note import Note
from ..language import gettext, speaking
from ..projections.narration import summarize
from ..projections.narration.stored import happenings_of_record
from .markup import escape_bbcode, escape_markdown, escape_telegram_html, markdown_block, markdown_code

if TYPE_CHECKING:
    from ..store import Store

FORMATS = ("text", "markdown", "bbcode")
#: Discord refuses a message's content over 2,000 characters.
DISCORD_LIMIT = 2000
#: Telegram refuses a message's text over 4,096 characters (after its entities are parsed).
TELEGRAM_LIMIT = 4096


@dataclass
class Told:
    campaign: str
    revision: int
    command_id: str
    type: str
    actor: str
    at: str
    position: int
    summary: str
    rolls: list[dict[str, Any]] = field(default_factory=list)
    #: What the command changed on each sheet, in key figures: "Anna: luck 1 → 0" (English, as `--json` keeps
    #: it; a `Phrase` that `said_changes` says in the reader's language).
    changes: list[str] = field(default_factory=list)
    #: The C2SP checkpoint a chapter's (or story's) end printed: of the commands before it, with every
    #: cosignature kept for it, as pasted.
    checkpoint: str | None = None
    #: Where the roll log shows this command's rolls, when a public URL is set.
    proof: str | None = None
    #: Who struck the command since, and why (a ruling; `struck_note`): its lines show it struck.
    struck: str | None = None
    #: The campaign's language, that its line and footer are said in (never a key of `as_json`).
    language: str = ENGLISH
    #: The chat's request it was posted from (`discord:<interaction id>`), if it records one.
    via: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"campaign": self.campaign, "revision": self.revision, "command_id": self.command_id,
                "type": self.type, "actor": self.actor, "at": self.at, "position": self.position,
                "line": self.summary, "rolls": self.rolls, "changes": self.changes,
                "checkpoint": self.checkpoint, "proof": self.proof, "struck": self.struck, "text": render(self, "text"),
                **({"via": self.via} if self.via is not None else {})}


def told(store: Store, key: str, record: Any, position: int, public_url: str | None,
         seen: dict[Any, Any] | None = None) -> Told:
    """The command whose `CommandApplied` is `record` (at `position`) in revision `key`, told."""
    # As the command left it, not as this process last cached it: another process may have written since.
    campaign = store.get(campaign_id(key), record.originator_version)
    root = key.split(REVISION_MARK, 1)[0]
    happenings = happenings_of_record(store, key, record, campaign)
    rolls = [_roll(h.data["roll"]) for h in happenings if h.event == "DiceRolled"]
    command = record.command
    language = campaign.options.get("language", ENGLISH)
    with speaking(language):
        summary = _ruling(command) if command.get("type") == "dispute" else summarize(campaign.ruleset, happenings)
    return Told(
        campaign=root, revision=revision_of(key), command_id=str(record.command_id), type=str(command.get("type")),
        actor=str(command.get("actor", "gm")), at=str(command.get("at", "")), position=position,
        summary=summary, rolls=rolls,
        changes=_changes(store, campaign, record.writes, seen),
        checkpoint=_checkpoint(store, root, revision_of(key), happenings, int(record.seq)),
        proof=(f"{public_url}/campaigns/{quote(root, safe='')}/rolls#roll-{quote(rolls[0]['id'], safe='')}"
               if public_url and rolls else None),
        language=language, via=command.get("via"),
    )


def told_by_id(store: Store, key: str, command_id: str, public_url: str | None) -> Told:
    """The command `command_id` of revision `key` (refused by name if it is not recorded there)."""
    from ..domain.errors import UnknownName
    from ..store.port import position_of
    from ..store.reads import latest_first

    originator = campaign_id(key)
    for record in latest_first(store, originator, ".CommandApplied", page=256):
        if record.command_id == command_id:
            position = position_of(store, originator, record.originator_version)
            return told(store, key, record, int(position or 0), public_url)
    raise UnknownName(f"no command {command_id!r} recorded in {key.replace(REVISION_MARK, ' revision ')}",
                      field="id")


def _ruling(command: dict[str, Any]) -> str:
    """A dispute's ruling, as the thread should read it: who ruled what on which roll, why, and the new revision."""
    decision = command.get("decision") or {}
    roll = command.get("roll")
    if decision.get("drop"):
        what = gettext("strikes {roll}").format(roll=roll)
    elif "faces" in decision:
        what = gettext("rules the faces of {roll} to be {faces}").format(roll=roll, faces=decision["faces"])
    else:
        what = gettext("rerolls {roll} from a fresh seed").format(roll=roll)
    also = decision.get("also_drop") or []
    dropped = gettext(" and strikes {rolls}").format(rolls=", ".join(map(str, also))) if also else ""
    return gettext("{actor} {ruling} ({reason}): the campaign is now revision {revision}").format(
        actor=command.get("actor"), ruling=what + dropped, reason=command.get("reason"),
        revision=command.get("revision"))


def struck_note(ruling: dict[str, Any] | None, language: str = ENGLISH) -> str | None:
    """What a struck command's lines say of the ruling that struck it (as `rollbook revisions` lists it), if any,
    in `language` (the campaign's, as its lines are)."""
    if ruling is None:
        return None
    with speaking(language):
        return gettext("by {actor} ({reason}) in {dispute}: revision {revision} is played without it").format(
            actor=ruling["actor"], reason=ruling["reason"], dispute=ruling["dispute"], revision=ruling["revision"])


def _roll(roll: dict[str, Any]) -> dict[str, Any]:
    kept = ("id", "faces", "total", "outcome", "source", "nonce", "salt", "derivation", "place", "commitment",
            "dispute")
    return {k: roll[k] for k in kept if roll.get(k) is not None}


def _checkpoint(store: Store, campaign: str, revision: int, happenings: list[Any], seq: int) -> str | None:
    """The C2SP checkpoint a chapter's or story's end prints, of the commands before it (a record written before
    the C2SP form names that size in the old form it recorded); None for any other command, or where the
    campaign's key is not kept (a copy) or it has none."""
    from ..replay.transparency import published

    sizes = [h.data["commands"] for h in happenings if h.event == "CheckpointSigned"]
    if not sizes and any(h.event == "ScopeEnded" and h.data.get("scope") in ("chapter", "story") for h in happenings):
        sizes = [seq - 1]
    if not sizes:
        return None
    try:
        return thread_note(published(store, campaign, revision=revision, size=sizes[-1]).note)
    except CommandRejected:
        return None


#: A key name shown in a thread as it is: no character any format's markup (or a code block's end) is made of.
_PLAIN_NAME = re.compile(r"[\w.:/%~-]+")


def thread_note(note: Note) -> str:
    """A signed note as a thread shows it (in a code block): its signature lines whose key names are plain. A
    witness may name itself anything the spec allows (a backtick, a bracket): its line is left out here, never
    able to close the block; the store and `/log/checkpoint` publish every line."""
    return str(Note(note.text, tuple(s for s in note.signatures if _PLAIN_NAME.fullmatch(s.name))))


def _changes(store: Store, campaign: Any, writes: list[list[Any]], seen: dict[Any, Any] | None) -> list[str]:
    """Each sheet's key figures before and after the command, where they differ.

    `seen` keeps figures by (aggregate, version) between calls: the mirror tells a campaign's commands in
    order, so one command's "after" is most often the next one's "before", and is not folded again.
    """
    members = {member_id(campaign.campaign, entry["kind"], name).hex: (name, entry["kind"])
               for name, entry in campaign.roster.items()}
    versions: dict[str, list[int]] = {}
    for aggregate, version, _ in writes:
        if aggregate in members:
            versions.setdefault(aggregate, []).append(version)
    seen = {} if seen is None else seen
    if len(seen) > 4096:
        seen.clear()

    def figures(aggregate: str, version: int) -> dict[str, Any]:
        if (aggregate, version) not in seen:
            folded = store.get(UUID(aggregate), version)
            seen[(aggregate, version)] = key_figures(campaign.ruleset, folded.kind, folded.sheet())
        return seen[(aggregate, version)]

    changes = []
    for aggregate, numbers in versions.items():
        if min(numbers) == 1:
            continue  # made by this command: its line says it joins
        old, new = figures(aggregate, min(numbers) - 1), figures(aggregate, max(numbers))
        moved = [Phrase("{figure} {old} → {new}", figure=Term(campaign.ruleset, name), old=_shown(old.get(name)),
                        new=_shown(value)) for name, value in new.items() if old.get(name) != value]
        if moved:
            changes.append(Phrase("{member}: {moved}", member=members[aggregate][0], moved=listed(moved)))
    return changes


def _shown(figure: Any) -> Any:
    """A figure's value as a change's line shows it: its words (a `Phrase`) said in the reader's language, a
    number or anything else as it has always been printed."""
    return figure if isinstance(figure, Phrase) else str(figure)


def said_changes(told_: Told) -> list[str]:
    """What the command changed, in the language spoken now: the game's own words for its figures (фарт, раны),
    the counts in their plural forms; `changes` itself stays the English of `--json`."""
    return [in_words(change) for change in told_.changes]


# --- rendering ------------------------------------------------------------------------------


def _source(roll: dict[str, Any]) -> str:
    if roll.get("source") == "hmac":
        return gettext("campaign dice")
    if roll.get("source") == "typed":
        return gettext("typed (rolled elsewhere)")
    if roll.get("source") == "dispute":
        return gettext("ruled in {dispute}").format(dispute=roll.get("dispute") or gettext("a dispute"))
    return str(roll.get("source", "?"))


def _roll_parts(roll: dict[str, Any], code: Any) -> list[str]:
    """A roll's faces and where they came from, in the language spoken (`render` speaks the campaign's)."""
    parts = [f"[{', '.join(str(f) for f in roll.get('faces', []))}]", _source(roll)]
    if roll.get("nonce") is not None:
        parts.append(gettext("nonce {nonce}").format(nonce=roll["nonce"]))
    if roll.get("salt") is not None:
        parts.append(gettext("salt {salt}").format(salt=code(roll["salt"])))
    if roll.get("commitment"):
        parts.append(gettext("seed {commitment}…").format(commitment=roll["commitment"][:16]))
    return parts


def _roll_label(roll_id: str) -> str:
    return gettext("roll {roll}").format(roll=roll_id)


def _footer(told_: Told) -> str:
    with speaking(told_.language):
        revision = gettext(" revision {revision}").format(revision=told_.revision) if told_.revision > 1 else ""
        command = gettext("command {command}").format(command=told_.command_id)
    return f"Rollbook · {told_.campaign}{revision} · {command} · {told_.actor} · {told_.at}"


def posted_words(store: Store, keeper: Any, key: str, command_id: str) -> dict[str, Any]:
    """What a post from the pages changed on the sheets, in the page's language, and its line to paste (in the
    campaign's), for the answer beside its form."""
    told_ = told_by_id(store, key, command_id, keeper.load().proof_base)
    return {"changes": said_changes(told_), "lines": [("text", render(told_, "text"))]}


def render(told_: Told, form: str) -> str:
    """The command in `form`: text, markdown, bbcode (to paste into a forum) or discord (the thread's message),
    in the campaign's language."""
    with speaking(told_.language):
        return _rendered(told_, form)


def _rendered(told_: Told, form: str) -> str:
    struck, proof = gettext("STRUCK"), gettext("proof")
    if form == "text":
        lines = [told_.summary] + ([f"{struck} {told_.struck}"] if told_.struck else [])
        lines += [f"{_roll_label(r['id'])}: " + " · ".join(_roll_parts(r, lambda s: f'"{s}"')) for r in told_.rolls]
        lines += said_changes(told_)
        lines += [f"{proof}: {told_.proof}"] if told_.proof else []
        lines.append(f"— {_footer(told_)}")
        lines += ["", told_.checkpoint.rstrip("\n")] if told_.checkpoint else []
    elif form == "markdown":
        summary = f"**{escape_markdown(told_.summary)}**"
        lines = [summary, ""]
        if told_.struck:
            lines = [f"~~{summary}~~", "", f"**{struck}** {escape_markdown(told_.struck)}", ""]
        lines += [f"- {_roll_label(markdown_code(r['id']))}: " + " · ".join(_roll_parts(r, markdown_code))
                  + (f" · [{proof}]({told_.proof})" if told_.proof else "") for r in told_.rolls]
        lines += [f"- {escape_markdown(change)}" for change in said_changes(told_)]
        lines += ([""] if told_.rolls or told_.changes else []) + [f"*{escape_markdown(_footer(told_))}*"]
        lines += ["", markdown_block(told_.checkpoint.rstrip("\n"))] if told_.checkpoint else []
    elif form == "bbcode":
        lines = [f"[b]{escape_bbcode(told_.summary)}[/b]"]
        lines += [f"[s]{struck}[/s] {escape_bbcode(told_.struck)}"] if told_.struck else []
        lines += [_roll_label(f"[i]{escape_bbcode(r['id'])}[/i]") + ": "
                  + escape_bbcode(" · ".join(_roll_parts(r, lambda s: f'"{s}"')))
                  + (f" · [url={told_.proof}]{proof}[/url]" if told_.proof else "") for r in told_.rolls]
        lines += [escape_bbcode(change) for change in said_changes(told_)]
        lines.append(f"[i]{escape_bbcode(_footer(told_))}[/i]")
        lines += [f"[code]{told_.checkpoint.rstrip(chr(10))}[/code]"] if told_.checkpoint else []
    elif form == "discord":
        return discord_message(told_)
    else:
        raise ValueError(f"unknown format {form!r}")
    return "\n".join(lines) + "\n"


def discord_message(told_: Told) -> str:
    """The thread's message, in the campaign's language: the line, then small lines with the dice, the changes
    and the proof."""
    with speaking(told_.language):
        return _discord_message(told_)


def _discord_message(told_: Told) -> str:
    small = [f"-# {_roll_label(markdown_code(r['id']))}: " + " · ".join(_roll_parts(r, markdown_code))
             for r in told_.rolls]
    small += [f"-# {escape_markdown(change)}" for change in said_changes(told_)]
    small.append(f"-# {escape_markdown(told_.actor)} · {markdown_code(told_.command_id)}"
                 + (f" · [{gettext('proof')}](<{told_.proof}>)" if told_.proof else ""))
    note = "\n" + markdown_block(told_.checkpoint.rstrip("\n")) if told_.checkpoint else ""
    tail = "\n" + "\n".join(small) + note
    line = escape_markdown(told_.summary)
    if told_.struck:
        tail = f"\n**{gettext('STRUCK')}** {escape_markdown(told_.struck)}{tail}"
    room = DISCORD_LIMIT - len(tail)
    return (line if len(line) <= room else line[: room - 1] + "…") + tail


def telegram_message(told_: Told) -> str:
    """The bound chat's message, in Telegram's HTML and the campaign's language: the line in bold, the dice, the
    changes, who, the proof."""
    with speaking(told_.language):
        return _telegram_message(told_)


def _telegram_message(told_: Told) -> str:
    def code(text: str) -> str:
        return f"<code>{escape_telegram_html(str(text))}</code>"

    small = [f"{_roll_label(code(r['id']))}: " + escape_telegram_html(" · ".join(_roll_parts(r, lambda s: f'"{s}"')))
             for r in told_.rolls]
    small += [escape_telegram_html(change) for change in said_changes(told_)]
    small.append(f"<i>{escape_telegram_html(told_.actor)}</i> · {code(told_.command_id)}"
                 + (f' · <a href="{escape_telegram_html(told_.proof)}">{gettext("proof")}</a>' if told_.proof else ""))
    note = f"\n<pre>{escape_telegram_html(told_.checkpoint.rstrip(chr(10)))}</pre>" if told_.checkpoint else ""
    tail = "\n" + "\n".join(small) + note
    room = TELEGRAM_LIMIT - len(tail) - len("<b></b>")
    summary = told_.summary if len(told_.summary) <= room // 6 else told_.summary[: room // 6 - 1] + "…"
    return f"<b>{escape_telegram_html(summary)}</b>{tail}"
