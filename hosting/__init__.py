"""The group's use cases, under every interface: posting a command as a member (`posting.py`), ruling on a roll
(`rulings.py`), accounts and roles (`accounts.py`, `sign_ins.py`, `standing.py`), the rate limit (`limits.py`),
the answer a post is given and given again for its key (`answers.py`), the ids a person can say (`said_ids.py`),
and the host a serving process holds (`host.py`). They refuse in no interface's terms (`refusals.py`).

It sits above replay and below the interfaces (the server, the pages, the chats, the command line), which
all reach the store through it for what the group does; it imports none of them. The composition root
(bootstrap/) builds the host.
"""
