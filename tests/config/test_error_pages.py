"""The error pages speak the visitor's language too."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns

pytestmark = pytest.mark.django_db


def _refused(request):
    raise PermissionDenied


def _broken(request):
    raise RuntimeError("a bug")


urlpatterns = [
    *site_urlpatterns,
    path("refused/", _refused),
    path("broken/", _broken),
]


@pytest.mark.urls("tests.config.test_error_pages")
@pytest.mark.parametrize(
    "path, status, german",
    [
        ("/no-such-page/", 404, "Diese Seite gibt es nicht"),
        ("/refused/", 403, "Nicht erlaubt"),
        ("/broken/", 500, "Etwas ist schiefgelaufen"),
    ],
)
def test_error_pages_are_in_german_for_a_german_browser(settings, path, status, german):
    settings.DEBUG = False
    client = Client(raise_request_exception=False, headers={"accept-language": "de"})

    response = client.get(path)

    assert response.status_code == status
    assert german in response.content.decode()
