"""The group's use cases, under every interface: accounts and roles (`accounts.py`), the answer a post is
given and given again for its key (`answers.py`), the ids a person can say (`said_ids.py`).

It sits above replay and below the interfaces (the server, the pages, the chats, the command line), which
all reach the store through it for what the group does; it imports none of them.
"""
