"""The organizer's pages of the clubs (namespace ``manage``, under /manage/)."""

from django.urls import path

from clubs.manage import views

urlpatterns = [
    path("", views.club_list, name="club-list"),
    path("api-keys/", views.token_list, name="token-list"),
    path("api-keys/<int:token_id>/revoke/", views.token_revoke, name="token-revoke"),
]
