"""Accounts made in the browser: sign up with an e-mail address, open the link
mailed to it, and there choose a name and a password; only then log in.

The password is chosen on the confirmation page, never at sign-up: whoever reads
the address's mail chooses it. Someone who signs up another person's address
(first, or again while it waits) leaves nothing behind but a mail to that
person; no name or password typed before the confirmation survives it.

The answer to a sign-up is the same for an address Knock knows and one it does
not; only the mail differs (a known address is told it has an account and how to
get back in). So the page never says whose address is registered here."""

from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import get_language

from clubs.mails import mail_send, site_link
from clubs.models import Player


class AddressTokens(PasswordResetTokenGenerator):
    """The link in the sign-up mail. It works once (the account it activates is no
    longer waiting) and for ``PASSWORD_RESET_TIMEOUT``. A sign-up of the address
    again leaves the earlier links working: they all went to the same mailbox."""

    key_salt = "clubs.accounts.AddressTokens"

    def _make_hash_value(self, user, timestamp):
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"


address_tokens = AddressTokens()


def _known(email: str):
    User = get_user_model()
    return User.objects.filter(Q(email__iexact=email) | Q(username__iexact=email)).first()


def _waiting(user) -> bool:
    """An account signed up and never confirmed: inactive and never logged in (an
    account the site's admin switched off has logged in before)."""
    return not user.is_active and user.last_login is None


@transaction.atomic
def account_sign_up(*, email: str, next_page: str = "") -> None:
    """Signs an address up, or answers a known one by mail. A new account waits,
    inactive and with no usable password, until its address is confirmed; a
    waiting one is mailed another link. ``next_page`` (a path of this site) is
    where the confirmation leads, e.g. an invitation."""
    email = email.strip()
    user = _known(email)
    language = get_language()
    if user is not None and not _waiting(user):
        context = {"username": user.get_username(), "login": site_link("login")}
        context["reset"] = site_link("password_reset")
        transaction.on_commit(
            lambda: mail_send(
                to=email, template="account_known", context=context, language=language
            )
        )
        return
    if user is None:
        user = get_user_model()(username=email.lower(), email=email, is_active=False)
        user.set_unusable_password()
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            # The same address signed up at the same moment: that sign-up's mail is
            # the one that counts, and the answer is the same.
            return
    link = site_link("signup-confirm", uidb64=_uid(user), token=address_tokens.make_token(user))
    if next_page:
        link += "?" + urlencode({"next": next_page})
    context = {"link": link}
    transaction.on_commit(
        lambda: mail_send(to=email, template="account_confirm", context=context, language=language)
    )


def account_waiting(*, uidb64: str, token: str):
    """The waiting account this confirmation link is for, or None when the link is
    wrong, used or too old."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        user = get_user_model().objects.filter(pk=int(pk)).first()
    except (TypeError, ValueError, OverflowError):
        return None
    if user is None or not _waiting(user) or not address_tokens.check_token(user, token):
        return None
    return user


@transaction.atomic
def account_confirm(*, uidb64: str, token: str, name: str, password: str):
    """Activates the account of a confirmation link with the name and password the
    reader of its mail chose; None when the link no longer works
    (`account_waiting`). The row is locked, so the link works once even when it is
    opened twice at the same moment."""
    user = account_waiting(uidb64=uidb64, token=token)
    if user is None:
        return None
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    if not _waiting(user):
        return None
    user.first_name = name.strip()
    user.set_password(password)
    user.is_active = True
    user.save(update_fields=["first_name", "password", "is_active"])
    return user


def player_for(user) -> Player:
    """The player a login plays as; a new one, named as the person signed up, for a
    login that has none yet. The name, never the address, is what the club shows."""
    player = _player_of(user)
    if player is not None:
        return player
    try:
        with transaction.atomic():
            return Player.objects.create(name=name_of(user), email=user.email, user=user)
    except IntegrityError:
        # The same login's first two clubs at the same moment: one player, the one
        # written first (the constraint waited for its commit).
        return Player.objects.get(user=user)


def _player_of(user):
    return Player.objects.filter(user=user).first()


def name_of(user) -> str:
    """What a login is called where others read it: its player's name, else the
    name it signed up with, else its user name before any "@"."""
    player = Player.objects.filter(user=user).values_list("name", flat=True).first()
    return (player or user.get_full_name() or user.get_username().split("@")[0])[:120]


def _uid(user) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))
