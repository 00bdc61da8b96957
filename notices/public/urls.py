"""The player's notices (namespace ``public``): his choices on his own page
(`/me/<token>/`, the personal link), the phones he lets Knock push to, and the
one-click unsubscribe every message carries."""

from django.urls import path

from notices.public import provider, views

urlpatterns = [
    path("me/<str:token>/notices/", views.choices, name="notices-choose"),
    path("me/<str:token>/notices/push/", views.push_subscribe, name="notices-push"),
    path("notices/off/<str:token>/", views.turn_off, name="notices-off"),
    # The mail provider's bounces and complaints (where one is configured).
    path(
        "notices/provider/<slug:provider>/tracking/",
        provider.provider_tracking,
        name="notices-provider-tracking",
    ),
]
