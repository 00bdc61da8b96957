"""The mails Knock sends, built one way: the plain text and beside it an HTML part
with the same words, the club's name above them and each link that stands alone on
its line as a button; a Message-ID of the site's own domain (`SITE_URL`'s host, not
the sending machine's name); and a subject folded as mail programs expect, never
starting with a blank line. The words are the sender's (clubs.mails, notices)."""

from __future__ import annotations

import re
from email.header import Header
from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

#: A line that is only a link: it becomes a button.
LINK = re.compile(r"https?://\S+")


def site_host() -> str:
    """The host the site is served under, as `SITE_URL` says (its port left out)."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def message_id() -> str:
    return make_msgid(domain=site_host())


def html_blocks(text: str) -> list[list[dict]]:
    """The text's paragraphs (split at blank lines), each a list of its lines:
    ``{"text": …}``, or ``{"button": label, "link": …}`` for a link alone on its
    line, labelled by the line before it when that one ends with a colon ("Your
    seat link, to enter the hands on your phone:") and by the link itself else."""
    blocks = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        lines: list[dict] = []
        for line in paragraph.splitlines():
            line = line.strip()
            if LINK.fullmatch(line):
                label = line
                if lines and "text" in lines[-1] and lines[-1]["text"].endswith(":"):
                    label = lines.pop()["text"][:-1]
                lines.append({"button": label, "link": line})
            elif line:
                lines.append({"text": line})
        if lines:
            blocks.append(lines)
    return blocks


class Mail(EmailMultiAlternatives):
    """A mail whose subject is folded by the header's own rules: Django's folding of
    a long or non-ASCII subject starts it on a line of its own, which some mail
    programs show as a subject beginning with a blank."""

    def message(self, *args, **kwargs):
        message = super().message(*args, **kwargs)
        charset = "us-ascii" if self.subject.isascii() else "utf-8"
        message.replace_header("Subject", Header(self.subject, charset, header_name="Subject"))
        return message


def mail_build(
    *,
    subject: str,
    text: str,
    to: list[str],
    heading: str,
    language: str,
    headers: dict | None = None,
) -> Mail:
    """A mail of ``text`` with its HTML part, ready to send."""
    mail = Mail(
        subject=" ".join(subject.split()),
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=to,
        headers={"Message-ID": message_id(), **(headers or {})},
    )
    html = render_to_string(
        "web/mail.html",
        {"subject": mail.subject, "heading": heading, "language": language,
         "blocks": html_blocks(text)},
    )  # fmt: skip
    mail.attach_alternative(html, "text/html")
    return mail
