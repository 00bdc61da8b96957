import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from clubs import accounts
from clubs.models import Player
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_sign_up_that_loses_the_race_for_its_address_writes_and_sends_nothing(
    monkeypatch, committed, mailoutbox
):
    committed(accounts.account_sign_up, email="nora@example.org")
    # The second sign-up read the address as free before the first one's commit.
    monkeypatch.setattr(accounts, "_known", lambda email: None)

    committed(accounts.account_sign_up, email="nora@example.org")

    assert get_user_model().objects.filter(username="nora@example.org").count() == 1
    assert len(mailoutbox) == 1


def test_a_login_whose_first_player_was_made_a_moment_ago_gets_that_one(monkeypatch):
    """Issue 44: ten clubs founded at once by a new login broke on the constraint
    of one player per login."""
    user = UserFactory(first_name="Nora Nash")
    first = accounts.player_for(user)
    # The second founding read "no player yet" before the first one's commit.
    monkeypatch.setattr(accounts, "_player_of", lambda user: None)

    with transaction.atomic():
        again = accounts.player_for(user)

    assert again == first
    assert Player.objects.filter(user=user).count() == 1


def test_a_login_without_a_player_gets_one_named_as_it_signed_up_never_by_its_address():
    named = UserFactory(username="nora@example.org", first_name="Nora Nash")
    unnamed = UserFactory(username="ben@example.org", first_name="")

    assert accounts.player_for(named).name == "Nora Nash"
    assert accounts.player_for(unnamed).name == "ben"
    assert accounts.player_for(named) == Player.objects.get(user=named)


def test_a_wrong_or_foreign_link_finds_no_waiting_account():
    active = UserFactory()
    uid = accounts.urlsafe_base64_encode(accounts.force_bytes(active.pk))

    assert (
        accounts.account_waiting(uidb64=uid, token=accounts.address_tokens.make_token(active))
        is None
    )
    chosen = {"name": "Eve", "password": "a long new secret 42"}
    assert accounts.account_confirm(uidb64="!!", token="x-y", **chosen) is None
    assert accounts.account_confirm(uidb64=uid, token="x-y", **chosen) is None
