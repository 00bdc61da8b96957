import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.clubs.conftest import can_log_in, link_in, without_csrf
from tests.factories import OrganizerFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a long new secret 42"


def sign_up(client, committed, email="nora@example.org", **extra):
    return committed(client.post, reverse("signup"), {"email": email, **extra}, follow=True)


def confirm(link, name="Nora Nash", password=PASSWORD):
    """The confirmation page of ``link`` posted with a name and password, by a
    browser of its own."""
    return Client().post(link, {"name": name, "password": password})


def test_a_new_address_gets_a_confirmation_link_and_the_account_waits_for_it(
    client, committed, mailoutbox
):
    response = sign_up(client, committed)

    assert response.redirect_chain[-1][0] == reverse("signup-sent")
    user = get_user_model().objects.get(email="nora@example.org")
    assert not user.is_active
    assert not can_log_in("nora@example.org", PASSWORD)
    assert [mail.to for mail in mailoutbox] == [["nora@example.org"]]
    assert "/signup/" in mailoutbox[0].body


def test_the_confirmation_activates_logs_in_and_leads_to_a_new_club(client, committed, mailoutbox):
    sign_up(client, committed)
    link = link_in(mailoutbox[0], "/signup/")
    browser = Client()

    page = browser.get(link)
    response = browser.post(link, {"name": "Nora Nash", "password": PASSWORD}, follow=True)

    assert "Confirm my address" in page.text
    assert 'autocomplete="new-password"' in page.text
    assert response.redirect_chain[-1][0] == reverse("manage:club-create")
    assert response.context["user"].email == "nora@example.org"
    user = get_user_model().objects.get(email="nora@example.org")
    assert (user.is_active, user.first_name) == (True, "Nora Nash")
    assert can_log_in("nora@example.org", PASSWORD)


def test_the_confirmation_link_works_once(client, committed, mailoutbox):
    sign_up(client, committed)
    link = link_in(mailoutbox[0], "/signup/")
    confirm(link)

    again = confirm(link, password="another long secret 7")

    assert again.status_code == 404
    assert "This link no longer works" in again.text


def test_a_confirmation_link_past_its_time_no_longer_works(client, committed, mailoutbox, settings):
    sign_up(client, committed)
    link = link_in(mailoutbox[0], "/signup/")
    settings.PASSWORD_RESET_TIMEOUT = -1

    response = confirm(link)

    assert response.status_code == 404
    assert "This link no longer works" in response.text
    assert not get_user_model().objects.get(email="nora@example.org").is_active


def test_a_wrong_confirmation_link_gives_a_clear_page(client):
    for link in ("/signup/MQ/nonsense-token/", "/signup/%%%/x-y/", "/signup/OTk5OTk5/a-b/"):
        response = client.get(link)
        assert response.status_code == 404
        assert "This link no longer works" in response.text


def test_a_known_address_gets_the_same_page_and_a_mail_saying_how_to_log_in(
    client, committed, mailoutbox
):
    known = OrganizerFactory(player__user__email="olga@example.org").player.user
    new = sign_up(client, committed, email="fresh@example.org")
    again = sign_up(Client(), committed, email="OLGA@example.org")

    assert again.redirect_chain == new.redirect_chain
    assert without_csrf(again.text) == without_csrf(new.text)
    told = mailoutbox[-1]
    assert told.to == ["OLGA@example.org"]
    assert "already have an account" in told.body
    assert known.username in told.body
    assert "/password-reset/" in told.body
    known.refresh_from_db()
    assert known.check_password("correct horse battery")
    assert get_user_model().objects.filter(email__iexact="olga@example.org").count() == 1


def test_a_squatter_who_signs_up_an_address_first_or_again_never_chooses_its_password(
    client, committed, mailoutbox
):
    """Issue 44: a password given before the confirmation chose the account's."""
    sign_up(client, committed, password="a stranger's password 1", name="Eve")
    sign_up(Client(), committed)
    sign_up(Client(), committed, password="a stranger's password 2", name="Eve")
    user = get_user_model().objects.get(email="nora@example.org")
    assert not user.has_usable_password()
    assert user.first_name == ""

    confirm(link_in(mailoutbox[0], "/signup/"))

    assert can_log_in("nora@example.org", PASSWORD)
    for stranger in ("a stranger's password 1", "a stranger's password 2"):
        assert not can_log_in("nora@example.org", stranger)
    assert get_user_model().objects.get(email="nora@example.org").first_name == "Nora Nash"
    assert [mail.to for mail in mailoutbox] == [["nora@example.org"]] * 3


def test_the_confirmation_page_asks_for_the_password_and_refuses_a_weak_one(
    client, committed, mailoutbox
):
    sign_up(client, committed)
    link = link_in(mailoutbox[0], "/signup/")

    weak = confirm(link, password="12345678")
    nameless = confirm(link, name="   ")

    assert weak.status_code == nameless.status_code == 400
    assert "too common" in weak.text
    assert not get_user_model().objects.get(email="nora@example.org").is_active
    assert confirm(link).status_code == 302


def test_a_password_like_the_address_is_refused_on_the_confirmation_page(
    client, committed, mailoutbox
):
    sign_up(client, committed, email="winterberry@example.org")

    response = confirm(link_in(mailoutbox[0], "/signup/"), password="winterberry")

    assert response.status_code == 400
    assert "too similar" in response.text


def test_sign_ups_from_one_address_are_throttled(client, committed, mailoutbox, settings):
    settings.ACCOUNT_MAIL_LIMIT = 2
    for n in range(2):
        assert sign_up(client, committed, email=f"p{n}@example.org").status_code == 200

    refused = sign_up(client, committed, email="p9@example.org")
    other = Client(REMOTE_ADDR="198.51.100.7")
    elsewhere = sign_up(other, committed, email="p8@example.org")

    assert refused.status_code == 429
    assert "Too many requests" in refused.text
    assert not get_user_model().objects.filter(email="p9@example.org").exists()
    assert elsewhere.status_code == 200
    assert len(mailoutbox) == 3


def test_the_confirmation_leads_on_to_the_page_it_was_signed_up_for(client, committed, mailoutbox):
    sign_up(client, committed, next="/invitations/some-key/")
    link = link_in(mailoutbox[0], "/signup/")

    response = confirm(link)

    assert response.url == "/invitations/some-key/"


def test_a_next_page_elsewhere_is_dropped(client, committed, mailoutbox):
    sign_up(client, committed, next="https://evil.example/")
    link = link_in(mailoutbox[0], "/signup/")

    assert "evil" not in link
    assert confirm(link).url == reverse("manage:club-create")


def test_a_mail_server_that_is_down_changes_nothing_in_the_answer(client, committed, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 1

    response = sign_up(client, committed)

    assert response.redirect_chain[-1][0] == reverse("signup-sent")
    assert get_user_model().objects.filter(email="nora@example.org", is_active=False).exists()


def test_an_account_switched_off_is_not_switched_on_by_signing_up_again(
    client, committed, mailoutbox
):
    user = OrganizerFactory(player__user__email="gone@example.org").player.user
    client.force_login(user)
    client.logout()
    user.refresh_from_db()
    user.is_active = False
    user.save()

    sign_up(Client(), committed, email="gone@example.org")

    user.refresh_from_db()
    assert not user.is_active
    assert user.check_password("correct horse battery")
    assert "already have an account" in mailoutbox[-1].body


def test_a_confirmed_address_logs_in_whatever_its_case(client, committed, mailoutbox):
    sign_up(client, committed, email="Nora@Example.org")
    confirm(link_in(mailoutbox[0], "/signup/"))

    assert can_log_in("NORA@example.ORG", PASSWORD)
    assert not can_log_in("NORA@example.ORG", "a wrong password 99")


@pytest.mark.parametrize("name", ["\u202e", "\u200b\u200d", "Nora\x00Nash", "\u3164"])
def test_the_confirmation_page_refuses_a_name_that_shows_nothing_or_holds_a_control(
    client, committed, mailoutbox, name
):
    sign_up(client, committed)

    response = confirm(link_in(mailoutbox[0], "/signup/"), name=name)

    assert response.status_code == 400
    assert not get_user_model().objects.get(email="nora@example.org").is_active


@pytest.mark.parametrize("email", ["nora\x00@example.org", "\u202e@example.org", "x" * 151])
def test_a_sign_up_of_no_address_is_refused_beside_the_form(client, committed, mailoutbox, email):
    response = sign_up(client, committed, email=email)

    assert response.status_code == 400
    assert mailoutbox == []
