"""A personal link's token with a character outside its alphabet (a NUL that
PostgreSQL refuses in any statement, a right-to-left mark, a space) opens nothing:
a 404 without a query, counted by the link guard like any wrong link."""

import pytest

pytestmark = pytest.mark.django_db

SHAPES = ["%00", "a%00b", "%E2%80%AE", "a%20b", "a.b", "A" * 65]
PAGES = ["/me/{}/", "/me/{}/calendar.ics", "/me/{}/notices/", "/api/me/{}"]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("token", SHAPES)
def test_a_personal_link_out_of_shape_is_a_404_without_a_query(
    client, page, token, django_assert_num_queries
):
    with django_assert_num_queries(0):
        response = client.get(page.format(token))

    assert response.status_code == 404


def test_the_data_download_of_a_link_out_of_shape_is_a_404(client):
    assert client.post("/me/%00/data/").status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_links_out_of_shape_are_counted_by_the_guard(client, page, settings):
    settings.SEAT_TOKEN_MISS_LIMIT = 2

    answers = [client.get(page.format(token)).status_code for token in ("%00", "a%00b", "%01")]

    assert answers == [404, 404, 429]
