"""Every word the Telegram adapter says, in one place, marked for translation (`N_`): the desk says each with
`gettext` in its reader's language (his Telegram's `language_code`; the campaign's for what the group reads).

Each is Telegram HTML with `{}` fields; what fills a field that a user chose (a name, a reason) is escaped with
`markup.escape_telegram_html` by the caller. `COMMANDS` are what `rollbook telegram register` gives
`setMyCommands`, in English and in Russian.
"""

from __future__ import annotations

from ...language import N_

#: (command, English description, Russian description), as Telegram's menu shows them.
COMMANDS = (
    ("move", "A move of your character, from buttons", "Ход вашего персонажа, кнопками"),
    ("roll", "Roll a move: /roll stat=guile move=…", "Бросок хода: /roll stat=guile move=…"),
    ("sheet", "A character's sheet: /sheet [NAME]", "Лист персонажа: /sheet [ИМЯ]"),
    ("odds", "The odds of a command, nothing rolled", "Шансы команды, без броска"),
    ("post", "Any command, as rollbook post takes it", "Любая команда, как в rollbook post"),
    ("undo", "Take a command back: /undo ID REASON (GM)", "Отменить команду: /undo ID ПРИЧИНА (мастер)"),
    ("checkpoint", "A signed checkpoint of the record (GM)", "Подписанная контрольная точка записи (мастер)"),
    ("link", "Link your Telegram account: /link CODE", "Привязать аккаунт Telegram: /link КОД"),
)

LINKED = N_("Linked: your Telegram account acts as the Rollbook user <b>{user}</b> from now on.")
NOT_BOUND = N_("This chat ({place}) is not bound to a Rollbook campaign: the GM binds it with "
               "<code>rollbook telegram bind CAMPAIGN --chat {chat}{topic}</code>.")
NOT_LINKED = N_("Your Telegram account ({account}) is not linked to a Rollbook user: ask the GM for a code "
                "(<code>rollbook users link-code NAME</code>) and send <code>/link CODE</code>, or have the GM link "
                "you (<code>rollbook users link NAME --telegram {account}</code>).")
NOT_MEMBER = N_("{user} is not a member of {campaign}: the GM grants a role "
                "(<code>rollbook grant {user} player</code>).")
REFUSED = N_("Refused: {reason}")
NO_COMMAND = N_("Rollbook has no command /{name}: /move for a move, /post for any command.")
GIVE_UNDO = N_("Name the command and the reason: <code>/undo COMMAND_ID REASON</code>.")
GIVE_WORDS = N_("Give the command's type and fields after /post, as <code>rollbook post</code> takes them.")
NO_CHARACTER = N_("{user} plays no character in {campaign} that makes moves.")
NO_BOOK = N_("{campaign}'s game has no book of moves: /post names the command.")
PICK_MOVE = N_("<b>{character}</b>: which move?")
PICK_STAT = N_("<b>{character}</b>, {move}: which stat?")
NOT_YOURS = N_("Refused: {character} is not your character.")
STALE = N_("This button no longer names a character or a move: send /move again.")
