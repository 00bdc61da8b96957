from django.contrib import admin
from django.urls import include, path

from clubs.urls import site_urlpatterns
from config.api import api
from config.health import health

urlpatterns = [
    path("health/", health, name="health"),
    *site_urlpatterns,
    path("", include("clubs.urls")),
    path("", include("scoring.urls")),
    path("manage/", include("scoring.manage_urls")),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
