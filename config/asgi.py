import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

# The pages' live streams are served beside Django, not inside it (live/streams.py).
from live import streams  # noqa: E402  (after Django is set up)

application = streams.asgi(django_application)
