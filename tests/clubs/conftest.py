import re

import pytest
from django.test import Client
from django.urls import reverse


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Runs what a write leaves for after its commit (the mails), as a real
    request's commit would: the test's transaction never commits."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def link_in(mail, start: str) -> str:
    """The path of the link in a mail that begins with ``start`` (after SITE_URL)."""
    return re.search(r"https?://[^/\s]+(" + re.escape(start) + r"\S*)", mail.body).group(1)


def can_log_in(username: str, password: str) -> bool:
    """Whether the login page lets this name and password in (a redirect to the
    clubs, not the form again)."""
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def without_csrf(page: str) -> str:
    """A page with its CSRF token (new for every browser) left out."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
