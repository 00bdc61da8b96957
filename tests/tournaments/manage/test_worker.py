"""With a real worker, the round page shows the pairing in progress and then the
tables, by itself."""

import time

import pytest
from django.urls import reverse

from tournaments.models import Round

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_round_page_shows_the_pairing_until_the_worker_has_paired(client, tournament):
    t = tournament()

    started = client.post(reverse("manage:round-start", args=[t.slug]))
    page = client.get(started["Location"])

    round = t.round_set.get()
    assert page.status_code == 200
    if round.status == Round.Status.PAIRING:
        assert "The round is being paired." in page.content.decode()
    tables = reverse("manage:round-tables", args=[t.slug, 1])
    deadline = time.monotonic() + 30
    while client.get(tables)["X-Round-Status"] != Round.Status.PLAYING:
        assert time.monotonic() < deadline, "the worker did not pair the round"
        time.sleep(0.2)
    page = client.get(started["Location"])
    assert page.content.decode().count('class="board card') == 3
