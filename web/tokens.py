"""What a link's token may be: the letters of URL-safe base64 (`secrets.token_urlsafe`),
as every personal link, door link and seat link is made. Anything else (a NUL, a
space, a character of another alphabet) opens nothing and is never looked up: a
NUL makes PostgreSQL refuse the whole statement, a 500 the link guard would not
count as a miss."""

import re

#: At most the columns' 64 characters; the seat link's exact shape is
#: `scoring.models.SEAT_TOKEN`.
LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_link_token(token: str) -> bool:
    return LINK_TOKEN.fullmatch(token) is not None
