"""The public pages of tournaments (namespace ``public``, see config/urls.py); a
club's page is served by seasons.public, which shows its season and ratings too."""

from django.urls import path

from tournaments.public import knockout, views

urlpatterns = [
    path("t/<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path(
        "t/<slug:slug>/live/<str:part>/",
        views.tournament_live,
        name="tournament-live",
    ),
    path("t/<slug:slug>/events/", views.tournament_events, name="tournament-events"),
    path("t/<slug:slug>/screen/", views.tournament_screen, name="tournament-screen"),
    path("t/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round-detail"),
    path("t/<slug:slug>/final/", knockout.final_detail, name="final"),
    path("t/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("t/<slug:slug>/plan/", views.plan_detail, name="plan"),
    path("t/<slug:slug>/players/<int:entrant_id>/", views.player_detail, name="player-detail"),
    path("t/<slug:slug>/standings.csv", views.standings_csv, name="standings-csv"),
    path("t/<slug:slug>/results.csv", views.results_csv, name="results-csv"),
    path("t/<slug:slug>/print/<str:what>/", views.tournament_print, name="tournament-print"),
]

# Outside any namespace: the settings' LOGOUT_REDIRECT_URL and the base template use it.
site_urlpatterns = [
    path("", views.home, name="home"),
]
