"""Text a user chose (a name, a salt, a reason, a title, an id), put into markup: shown as written, never as markup.

One function per format, and every line, message and answer that puts a user's text into that format calls it:

- `escape_markdown`: Markdown (Discourse, GitHub, Matrix) and Discord's Markdown. Each character that opens
  markup is backslash-escaped (CommonMark lets any ASCII punctuation be), and so is what turns plain text into a
  link or a mention there: the `:` of a `scheme://`, the `.` before a domain's next label (`evil.org`, `www.`)
  and every `@` (`@everyone`, an e-mail address); `<` opens none of Discord's `<@id>`, `<@&role>`, `<#channel>`.
  Line breaks become spaces and leading blanks go (a reader of Markdown sees neither), and a list's or a rule's
  opening (`- `, `1. `, `---`) at the start is escaped.
- `markdown_code`: a salt or an id in a code span, in which nothing is markup: in single backticks, or, when the
  text holds a backtick or a line break (which would end the span), escaped as text instead.
- `markdown_block`: a checkpoint's note in a code block, its fence longer than any run of backticks in it.
- `escape_bbcode`: BBCode (phpBB, MyBB). An empty `[b][/b]` after a `[` that could open a tag, inside a
  `scheme://` and after a domain's dot: a forum reads no tag and finds no link there, and shows nothing for it.
- HTML: the pages' templates, escaped by Jinja's autoescape (MarkupSafe), and nothing else.
- `escape_telegram_html`: Telegram's HTML (`parse_mode` HTML): `<`, `>`, `&` and quotes as entities, which is all
  Telegram reads as markup there (https://core.telegram.org/bots/api#html-style); a `<pre>` block's text too.
"""

from __future__ import annotations

import html
import re

#: A line break, with the blanks around it: inside a line, a user's text is one line (Markdown shows a break in a
#: paragraph as a space; a line of its own could open a list, a heading, a quote).
LINE_BREAK = re.compile(r"\s*[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]\s*")
#: What opens a list item or a rule at the start of a line (`- `, `+ `, `1. `, `2) `, `---`), once the rest is escaped.
BLOCK_START = re.compile(r"^(?:[-+](?=\s)|-(?=-)|\d{1,9}[.)](?=\s|$))")
#: What Markdown or Discord could read as markup or a link in a user's text (see the module's text).
MARKDOWN_SPECIAL = re.compile(r"[\\`*_\[\]<>|~#&@]|:(?=/)|(?<=\w)\.(?=[^\W\d_])")
#: A '[' that could open a BBCode tag ([b], [/url], [url=…], [*]), the '://' of a link, a domain's dot.
BBCODE_SPECIAL = re.compile(r"\[(?=/?[A-Za-z*])|:(?=/)|(?<=\w)\.(?=[^\W\d_])")
#: What ends a code span early: a backtick, or a line break (a span is one line in Discord).
CODE_ENDS = re.compile(r"[`\r\n]")


def escape_markdown(text: str) -> str:
    # Leading blanks are dropped (Markdown shows none; four would open a code block), line breaks made spaces.
    escaped = MARKDOWN_SPECIAL.sub(lambda found: "\\" + found.group(), LINE_BREAK.sub(" ", text).lstrip())
    return BLOCK_START.sub(lambda found: found.group()[:-1] + "\\" + found.group()[-1], escaped)


def markdown_code(text: str) -> str:
    return escape_markdown(text) if CODE_ENDS.search(text) or not text.strip() else f"`{text}`"


def markdown_block(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"


def escape_bbcode(text: str) -> str:
    # An empty bold tag after the bracket (the colon, the dot) stops any forum reading a tag or a link there.
    return BBCODE_SPECIAL.sub(lambda found: found.group() + "[b][/b]", text)


def escape_telegram_html(text: str) -> str:
    return html.escape(text)
