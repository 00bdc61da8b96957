"""The account mails (sign-up, invitations): written from text templates in the
reader's language, with links that begin with SITE_URL, and sent through Django's
mail framework. They are sent after the commit of the write that asks for them,
within the request: a person waits for this very mail, and a few a day do not
need a queue."""

import logging
import smtplib

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from web.mail import mail_build

log = logging.getLogger(__name__)


def site_link(name: str, **kwargs) -> str:
    """The absolute address of a page, for a mail read away from any request."""
    return settings.SITE_URL + reverse(name, kwargs=kwargs)


def mail_send(*, to: str, template: str, context: dict, language: str) -> bool:
    """Sends ``templates/clubs/mail/<template>.txt`` (its first line the subject) to
    ``to``, as text and as HTML (`web.mail`), headed by the club's name where the
    mail is about a club. A mail server that is down is logged, not raised: the page the person
    sees says the same either way, so the answer never tells whether an address
    is known, and he can ask again."""
    with translation.override(language):
        subject, _, body = render_to_string(f"clubs/mail/{template}.txt", context).partition("\n")
    try:
        mail_build(
            subject=subject,
            text=body.lstrip("\n"),
            to=[to],
            heading=str(context.get("club") or "Knock"),
            language=language,
        ).send()
    except (OSError, smtplib.SMTPException):
        log.warning("mail %s not sent", template, exc_info=True)
        return False
    return True
