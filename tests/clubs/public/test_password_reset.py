import pytest
from django.test import Client
from django.urls import reverse

from tests.clubs.conftest import can_log_in, link_in, without_csrf
from tests.factories import OrganizerFactory

pytestmark = pytest.mark.django_db

NEW = "another long secret 77"


def ask(client, email):
    return client.post(reverse("password_reset"), {"email": email}, follow=True)


def choose(link, password=NEW):
    browser = Client()
    form_url = browser.get(link).url  # Django hides the token behind a redirect.
    return browser.post(
        form_url, {"new_password1": password, "new_password2": password}, follow=True
    )


@pytest.fixture
def olga():
    return OrganizerFactory(player__user__email="olga@example.org").player.user


def test_the_login_page_leads_to_the_forgotten_password_and_to_sign_up(client):
    page = client.get(reverse("login")).text
    assert reverse("password_reset") in page
    assert reverse("signup") in page


def test_a_forgotten_password_is_chosen_again_by_the_mailed_link(client, olga, mailoutbox):
    ask(client, "olga@example.org")
    link = link_in(mailoutbox[0], "/password-reset/")

    response = choose(link)

    assert response.redirect_chain[-1][0] == reverse("password_reset_complete")
    assert response.context["user"] == olga
    assert can_log_in(olga.username, NEW)
    assert olga.username in mailoutbox[0].body


def test_the_reset_link_works_once(client, olga, mailoutbox):
    ask(client, "olga@example.org")
    link = link_in(mailoutbox[0], "/password-reset/")
    choose(link)

    again = Client().get(link, follow=True)

    assert "This link no longer works" in again.text


def test_an_old_reset_link_no_longer_works(client, olga, mailoutbox, settings):
    ask(client, "olga@example.org")
    link = link_in(mailoutbox[0], "/password-reset/")
    settings.PASSWORD_RESET_TIMEOUT = -1

    assert "This link no longer works" in Client().get(link, follow=True).text


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, olga, mailoutbox):
    known = ask(client, "olga@example.org")
    unknown = ask(Client(), "nobody@example.org")

    assert known.redirect_chain == unknown.redirect_chain
    assert without_csrf(known.text) == without_csrf(unknown.text)
    assert [mail.to for mail in mailoutbox] == [["olga@example.org"]]


def test_reset_requests_from_one_address_are_throttled(client, olga, mailoutbox, settings):
    settings.ACCOUNT_MAIL_LIMIT = 1
    ask(client, "olga@example.org")

    refused = ask(client, "olga@example.org")

    assert refused.status_code == 429
    assert len(mailoutbox) == 1
