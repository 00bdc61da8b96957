"""A seat link is a key to the seat: if one is posted somewhere public, search
engines must not list its page. The public pages stay indexable."""

import pytest

from tests.factories import start_party

pytestmark = pytest.mark.django_db

NOINDEX = '<meta name="robots" content="noindex, nofollow">'


def test_the_seat_page_asks_not_to_be_indexed_in_its_markup_and_its_header(client):
    seat = start_party().seats.first()
    response = client.get(seat.get_absolute_url())
    assert response.status_code == 200
    assert NOINDEX in response.text
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_the_seats_poll_and_an_unknown_link_are_not_indexed_either(client):
    seat = start_party().seats.first()
    assert client.get(f"{seat.get_absolute_url()}state/")["X-Robots-Tag"] == "noindex, nofollow"
    assert client.get("/table/no-such-seat/")["X-Robots-Tag"] == "noindex, nofollow"


def test_public_pages_may_be_indexed(client):
    response = client.get("/")
    assert "X-Robots-Tag" not in response
    assert 'name="robots"' not in response.text
