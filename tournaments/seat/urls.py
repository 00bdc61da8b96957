"""The player's own pages of a tournament, opened with a secret link (namespace
``seat``, see config/urls.py): the self check-in at the door."""

from django.urls import path

from tournaments.seat import views

# On the QR code at the door: this path never changes (the token does, when replaced).
urlpatterns = [
    path("door/<str:token>/", views.door, name="door"),
]
