"""The site's URLs: one namespace per audience, each app adding its pages to it.

- ``public``: pages anyone may see;
- ``seat``: the table's pages, opened with a seat token (``/table/<token>/``, printed
  on the table cards: never changed);
- ``manage``: the organizer's pages, under /manage/;
- the JSON API under /api/ (config/api.py), and the site-wide names (home, health,
  login, logout) that Django's auth and the settings refer to.
"""

from django.contrib import admin
from django.urls import include, path

from clubs.manage import urls as clubs_manage
from clubs.public import urls as clubs_public
from clubs.public.urls import site_urlpatterns as clubs_site
from config.api import api
from config.favicon import favicon
from config.health import health
from notices.manage import urls as notices_manage
from notices.public import urls as notices_public
from notices.seat import urls as notices_seat
from scoring.manage import urls as scoring_manage
from scoring.seat import urls as scoring_seat
from seasons.manage import urls as seasons_manage
from seasons.public import urls as seasons_public
from tournaments.manage import urls as tournaments_manage
from tournaments.public import urls as tournaments_public
from tournaments.public.urls import site_urlpatterns as tournaments_site
from tournaments.seat import urls as tournaments_seat

AUDIENCES = {
    # namespace: (prefix, the apps' URL modules)
    "public": ("", [clubs_public, tournaments_public, seasons_public, notices_public]),
    "seat": ("", [scoring_seat, tournaments_seat, notices_seat]),
    "manage": (
        "manage/",
        [clubs_manage, scoring_manage, tournaments_manage, seasons_manage, notices_manage],
    ),
}

urlpatterns = [
    path("health/", health, name="health"),
    path("favicon.ico", favicon, name="favicon"),
    *clubs_site,
    *tournaments_site,
    *(
        path(prefix, include(([p for m in modules for p in m.urlpatterns], namespace)))
        for namespace, (prefix, modules) in AUDIENCES.items()
    ),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
