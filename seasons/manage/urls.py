"""The organizer's pages of a club's seasons, ratings and players (namespace
``manage``, under /manage/)."""

from django.urls import path

from seasons.manage import views

urlpatterns = [
    path("clubs/<slug:slug>/players/", views.player_list, name="season-players"),
    path("clubs/<slug:slug>/players/<int:pk>/", views.player_detail, name="season-player"),
    path(
        "clubs/<slug:slug>/players/<int:pk>/link/",
        views.player_link_issue,
        name="season-player-link",
    ),
    path(
        "clubs/<slug:slug>/players/<int:pk>/merge/",
        views.guest_merge,
        name="season-player-merge",
    ),
    path(
        "clubs/<slug:slug>/players/<int:pk>/data/",
        views.player_data_download,
        name="season-player-data",
    ),
    path(
        "clubs/<slug:slug>/players/<int:pk>/erase/",
        views.player_erase,
        name="season-player-erase",
    ),
    path("clubs/<slug:slug>/seasons/", views.season_list, name="season-list"),
    path("seasons/<int:pk>/", views.season_detail, name="season-detail"),
    path("seasons/<int:pk>/close/", views.season_close, name="season-close"),
    path("seasons/<int:pk>/reopen/", views.season_reopen, name="season-reopen"),
]
