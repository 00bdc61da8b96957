"""The organizer's pages of the clubs (namespace ``manage``, under /manage/)."""

from django.urls import path

from clubs.manage import views

urlpatterns = [
    path("", views.club_list, name="club-list"),
]
