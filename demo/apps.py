from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo club that `make run` loads. It fills every app, so it sits above
    them all: nothing imports it, and it may import clubs, scoring and tournaments."""

    name = "demo"
