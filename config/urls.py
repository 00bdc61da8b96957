from django.contrib import admin
from django.urls import include, path

from clubs.urls import site_urlpatterns

urlpatterns = [
    *site_urlpatterns,
    path("", include("clubs.urls")),
    path("", include("scoring.urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
