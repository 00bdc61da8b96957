"""The site with a cache that keeps nothing: every public page is built anew."""

from config.settings import *  # noqa: F403

CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
