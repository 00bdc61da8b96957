"""The table's pages (namespace ``seat``, see config/urls.py)."""

from django.urls import path

from scoring.seat import views

# Printed on the table cards: these paths never change.
urlpatterns = [
    # The service worker of the seat pages: its path decides its scope, /table/.
    path("table/sw.js", views.service_worker, name="service-worker"),
    path("table/<str:token>/", views.table, name="table"),
    path("table/<str:token>/state/", views.table_state, name="table-state"),
    path("table/<str:token>/events/", views.table_events, name="table-events"),
    path("table/<str:token>/enter/", views.table_enter, name="table-enter"),
    path("table/<str:token>/enter-cards/", views.table_enter_cards, name="table-enter-cards"),
    # Printed before one address took every game's hands: kept, so no page a phone
    # still holds posts into nothing.
    path("table/<str:token>/enter-game/", views.table_enter, name="table-enter-game"),
    path("table/<str:token>/confirm-game/", views.table_confirm, name="table-confirm-game"),
    path("table/<str:token>/preview-game/", views.table_preview_game, name="table-preview-game"),
    path("table/<str:token>/preview/", views.table_preview, name="table-preview"),
    path("table/<str:token>/confirm/", views.table_confirm, name="table-confirm"),
    path("table/<str:token>/manifest.webmanifest", views.table_manifest, name="table-manifest"),
]
