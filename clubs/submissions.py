"""A create form sent once.

An organizer's form that makes something (a tournament, a club night, a season, an
API key …) carries a one-time key, made each time the page is shown (the
``{% form_key %}`` tag, `clubs.templatetags.form_keys`). Sending the form claims
the key first, in the transaction that makes the item, held by a unique constraint
(`FormSubmission`). The same form sent again, one after the other or at the same
moment (a double click, the browser's resend after a lost answer, back and submit),
finds the key taken: it makes nothing and is sent to what the first one made.

A POST without a key (a page from before the keys, a script) works as before: the
key only protects the forms the site rendered."""

import re
import secrets
from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.shortcuts import redirect
from django.utils.translation import gettext

from clubs.models import FormSubmission
from web.validators import KEY_PATTERN

#: The hidden field that carries the key.
FIELD = "form_key"

Made = TypeVar("Made")


class AlreadySent(Exception):
    """The form's key was claimed by an earlier sending; ``location`` is the page of
    what that one made."""

    def __init__(self, location: str):
        self.location = location
        super().__init__(gettext("This form was already sent: here is what it made."))


def new_key() -> str:
    return secrets.token_urlsafe(16)


def key_of(request) -> str:
    """The key a POST carries, or "" for none. Anything the site does not make (too
    long, other characters) counts as none: the form works as without a key."""
    key = request.POST.get(FIELD, "")
    return key if re.fullmatch(KEY_PATTERN, key) else ""


def submit_once(
    *, user, key: str, make: Callable[[], Made], location: Callable[[Made], str]
) -> Made:
    """``make()`` once per ``key`` of ``user``: the key is claimed before anything is
    made and in the same transaction, so a second sending, even one at the same
    moment (it waits on the claim until the first commits), raises `AlreadySent`
    with ``location(made)`` of the first. A refusal from ``make`` rolls the claim
    back with the rest: the form sent again with the same key is tried again.
    Without a key, ``make()`` as before."""
    if not key:
        return make()
    with transaction.atomic():
        try:
            with transaction.atomic():
                claim = FormSubmission.objects.create(user=user, key=key)
        except IntegrityError:
            first = FormSubmission.objects.filter(user=user, key=key).first()
            if first is None:
                raise
            raise AlreadySent(first.location) from None
        made = make()
        claim.location = location(made)
        claim.save(update_fields=["location"])
    return made


def to_first(request, sent: AlreadySent):
    """The answer to a form sent again: what the first sending made, with a word why."""
    messages.info(request, str(sent))
    return redirect(sent.location)
