"""Issue 46, 2: a player's text, put into a line in each format, makes no link, tag or mention of its own.

Hostile text (names, salts, reasons, ids: the attack's salt ``x` [click](javascript:alert(1)) <b>y</b> `z``, role
mentions, bare links, forum tags) is put where a player's text lands in a command's line (the line in words, a roll's
id and salt, what changed, who acted), rendered in each format by a real renderer, and what the renderer made is
compared with the same line made of plain words: Markdown by markdown-it-py (links, bare links too, HTML, emphasis,
lists, headings), BBCode by the `bbcode` package (tags and links, as a forum makes them), Discord's message by
markdown-it-py too, and no `<`, `@` left unescaped outside a code span (Discord's `<@id>`, `<@&role>`, `<#channel>`,
`@everyone`); Telegram's message (its HTML) by an HTML parser. The refusals Discord shows list names escaped
the same way.
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import bbcode
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from rollbook.integrations.lines import Told, discord_message, render, telegram_message
from rollbook.integrations.markup import escape_markdown

PROOF = "https://rollbook.example.org/campaigns/c/rolls#roll-r1"
#: What an attacker would try, in pieces a generated text is made of.
HOSTILE = ["x` [click](javascript:alert(1)) <b>y</b> `z", "**Bo**", "_x_", "`y`", "``", "[url=http://evil.org]x[/url]",
           "[/b]", "[img]http://e.org/a.png[/img]", "<@&123456789012345678>", "<@1>", "<#2>", "@everyone", "@here",
           "https://evil.org/x", "http://e.co", "www.evil.org", "evil.com/path", "a@b.org", "mailto:a@b.org",
           "<https://e.org>", "![i](http://e.org/i.png)", "[x][1]\n[1]: http://e.org", "&lt;b&gt;", "&#60;i>",
           "<script>alert(1)</script>", "\n- item", "\n# Head", "\n> quote", "\n    code", "---", "1. one",
           "||spoiler||", "~~s~~", "-# small", "\\", "\n\n", "|a|b|\n|-|-|", " ", "[", "]", "(", ")", ":", "."]
TEXT = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(alphabet="ab :/.@<>[]()*_`~#|\\-=\n&!", max_size=6)),
                min_size=1, max_size=5).map("".join)
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def told(text: str) -> Told:
    """A seeded roll's line with `text` wherever a player's text lands: the name in the line in words, the roll's
    id and salt, what changed, the command's id, a ruling's reason."""
    return Told(campaign="c", revision=1, command_id=f"{text}-id", type="roll_move", actor="player:anna",
                at="2026-12-07T12:00:00+00:00", position=7,
                summary=f"{text} — Audacity: 2d6 [3, 4] +1 = 8, partial success ({text})",
                rolls=[{"id": text, "faces": [3, 4], "source": "hmac", "nonce": 3, "salt": text,
                        "commitment": "ab" * 32}],
                changes=[f"{text}: luck 1 → 0"], proof=PROOF)


# --- what each renderer made ------------------------------------------------------------------


def markdown_renderer() -> MarkdownIt:
    """CommonMark with raw HTML, tables, strikethrough and bare links (linkify, as Discourse and GitHub do)."""
    md = MarkdownIt("commonmark", {"html": True, "linkify": True}).enable(["table", "strikethrough", "linkify"])
    md.linkify.set({"fuzzy_link": True, "fuzzy_email": True})
    return md


MD = markdown_renderer()
#: Tokens that are markup: what a player's text must never add.
MARKUP = re.compile(r"^(link_open|image|html_inline|html_block|em_open|strong_open|s_open|heading_open|hr|"
                    r"bullet_list_open|ordered_list_open|blockquote_open|table_open|code_block|fence|softbreak|"
                    r"hardbreak)$")


def markdown_made(text: str) -> Counter:
    made: Counter = Counter()
    for token in MD.parse(text):
        for one in [token, *(token.children or [])]:
            if MARKUP.match(one.type):
                made[(one.type, one.attrGet("href") or one.attrGet("src") or "")] += 1
    return made


def unescaped_mentions(text: str) -> list[str]:
    """What Discord could read as a mention: a `<` or `@` in plain text (not escaped, not in a code span)."""
    md = MarkdownIt("commonmark")
    md.disable("text_join")  # an escaped character stays a token of its own (text_special)
    found = []
    for token in md.parse(text):
        for child in token.children or []:
            if child.type == "text" and re.search(r"[<@]", child.content):
                found.append(child.content)
    return found


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.made: Counter = Counter()

    def handle_starttag(self, tag, attrs):
        if tag != "br":  # a forum's line break
            self.made[(tag, dict(attrs).get("href", ""))] += 1


def telegram_made(text: str) -> Counter:
    """The tags (and links) of a message in Telegram's HTML (parse_mode HTML), as an HTML parser reads them."""
    tags = Tags()
    tags.feed(text)
    return tags.made


def bbcode_made(text: str) -> Counter:
    html = bbcode.Parser().format(text).replace("<strong></strong>", "")  # the escaping's empty tags show nothing
    tags = Tags()
    tags.feed(html)
    return tags.made


# --- the property ----------------------------------------------------------------------------


PLAIN = told("Anna")


@example("x` [click](javascript:alert(1)) <b>y</b> `z")  # the attack of December 7, in a salt
@example("**Bo**_x_`y``<@&123456789012345678>")  # the names Discord's refusals listed unescaped
@example("www.evil.org @everyone")
@example("\n    indented\n- and a list")
@given(TEXT)
@SETTINGS
def test_a_players_text_makes_no_markup_in_any_format(text):
    hostile = told(text)
    assert markdown_made(render(hostile, "markdown")) == markdown_made(render(PLAIN, "markdown"))
    assert bbcode_made(render(hostile, "bbcode")) == bbcode_made(render(PLAIN, "bbcode"))
    message = discord_message(hostile)
    assert markdown_made(message) == markdown_made(discord_message(PLAIN))
    assert unescaped_mentions(message) == []
    assert telegram_made(telegram_message(hostile)) == telegram_made(telegram_message(PLAIN))


@given(TEXT)
@SETTINGS
def test_escaped_text_reads_as_written(text):
    """What the escaping keeps: the text, as a reader sees it (line breaks and the blanks around them read as one
    space, as Markdown shows them; leading blanks as none)."""
    shown = MD.renderInline(escape_markdown(text))
    seen = re.sub(r"\s*\n\s*", " ", text).lstrip()
    from html import unescape

    assert unescape(re.sub(r"<[^>]+>", "", shown)) == seen


def test_the_attacks_salt_is_text_in_every_format():
    salt = "x` [click](javascript:alert(1)) <b>y</b> `z"
    line = told(salt)
    html = MD.render(render(line, "markdown"))
    assert "javascript:" not in re.findall(r'href="([^"]*)"', html) and "<b>" not in html
    assert 'href="javascript' not in bbcode.Parser().format(render(line, "bbcode"))


@pytest.mark.parametrize("names", [["**Bo**", "_x_`y``", "<@&123456789012345678>"]])
def test_discords_refusals_list_names_escaped(thread, names):
    """`/rb sheet` without a character, by a player with none or several, lists the campaign's names."""
    from .support import MEMBERS, rb
    from .test_interactions import ephemeral
    from tests.server.conftest import ANNA

    for name in names:
        assert thread.table.post("gm1", {**ANNA, "name": name, "player": "anna"}).status_code == 201
    said = ephemeral(thread.send(rb("sheet", member=MEMBERS["anna"])))
    assert said.startswith("Name the character") and unescaped_mentions(said) == []
    listed = markdown_made(said)
    assert not any(kind in ("strong_open", "em_open") for kind, _ in listed), said
