"""A season's pages write their days as every other page of Knock does: the
language's long date (DATE_FORMAT), never the short numeric one."""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

pytestmark = pytest.mark.django_db

# A day written short: 9/1/2026 in English, 01.09.2026 in German.
SHORT = re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b\d{2}\.\d{2}\.\d{4}\b")


def test_the_season_pages_write_their_days_as_every_other_page(client, season_club):
    club, season, ada = season_club["club"], season_club["season"], season_club["ada"]
    pages = [
        reverse("public:season-detail", args=[club.slug, season.pk]),
        reverse("manage:season-detail", args=[season.pk]),
        reverse("manage:season-list", args=[club.slug]),
    ]
    for language in ("en", "de"):
        with translation.override(language):
            first = date_format(season.starts, "DATE_FORMAT")
            short = date_format(season.starts, "SHORT_DATE_FORMAT")
        for url in pages:
            text = client.get(url, HTTP_ACCEPT_LANGUAGE=language).text
            assert first in text, (language, url)
            # A form's date field keeps the short form a person types.
            assert short not in text.replace(f'value="{short}"', ""), (language, url)
    # The player's page: his best and latest parties, by their day.
    for language in ("en", "de"):
        text = client.get(
            reverse("public:club-player", args=[club.slug, ada.pk]), HTTP_ACCEPT_LANGUAGE=language
        ).text
        assert not SHORT.search(text), language
