"""The site's settings with the static files collected uncompressed, under the same
names and manifest: for the load test's small run (``LOAD_COMPRESS_STATIC=off``)."""

from config.settings import *  # noqa: F403

STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}
