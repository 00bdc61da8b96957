"""The public pages of a club, its ratings, seasons and players (namespace ``public``)."""

from django.urls import path

from seasons.public import link_again, views

urlpatterns = [
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/calendar.ics", views.club_calendar, name="club-calendar"),
    path("clubs/<slug:slug>/ratings/", views.rating_list, name="club-ratings"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", views.season_detail, name="season-detail"),
    path("clubs/<slug:slug>/seasons/<int:pk>/csv/", views.season_csv, name="season-csv"),
    path("clubs/<slug:slug>/players/<int:pk>/", views.player_detail, name="club-player"),
    # The personal link a player is given: his own page, no login (like a seat link).
    path("me/<str:token>/", views.player_own, name="player-own"),
    path("me/<str:token>/calendar.ics", views.player_calendar, name="player-calendar"),
    path("me/<str:token>/data/", views.player_own_data, name="player-own-data"),
    # The personal link mailed again to the player's address (the same answer for any).
    path("my-link/", link_again.player_link_again, name="player-link-again"),
]
