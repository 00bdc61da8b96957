"""Browsers ask for /favicon.ico whatever a page links: it leads to the site's icon."""

from django.contrib.staticfiles import finders
from django.templatetags.static import static


def test_favicon_ico_leads_to_the_icon_the_pages_link(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response.url == static("knock.svg")
    assert finders.find("knock.svg")
    assert client.head("/favicon.ico").status_code == 302

    page = client.get("/login/").content.decode()
    assert f'<link rel="icon" href="{static("knock.svg")}" type="image/svg+xml">' in page
