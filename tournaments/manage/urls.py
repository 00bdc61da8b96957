"""The organizer's tournament pages (namespace ``manage``, under /manage/, see config/urls.py)."""

from django.urls import path

from tournaments.manage import knockout, views

T = "tournaments/<slug:slug>/"
R = T + "rounds/<int:number>/"
F = T + "final/"

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", views.tournament_create, name="tournament-create"),
    path("clubs/<slug:slug>/tournaments/import/", views.archive_import, name="archive-import"),
    path(T, views.tournament_detail, name="tournament-detail"),
    path(T + "register/", views.entrant_register, name="entrant-register"),
    path(T + "guests/", views.entrant_register_guests, name="entrant-guests"),
    path(T + "entrants/<int:pk>/check-in/", views.entrant_check_in, name="entrant-check-in"),
    path(T + "check-in/", views.entrants_check_in, name="entrants-check-in"),
    path(T + "entrants/", views.entrant_rows, name="entrant-rows"),
    path(T + "door/", views.door, name="door"),
    path(T + "door/link/", views.door_link, name="door-link"),
    path(T + "entrants/<int:pk>/withdraw/", views.entrant_withdraw, name="entrant-withdraw"),
    path(T + "apart/", views.keep_apart_add, name="keep-apart"),
    path(T + "apart/<int:pk>/remove/", views.keep_apart_remove, name="keep-apart-remove"),
    path(T + "entrants/<int:pk>/reinstate/", views.entrant_reinstate, name="entrant-reinstate"),
    path(T + "start/", views.round_start, name="round-start"),
    path(T + "pair/", views.round_pair, name="round-pair"),
    path(T + "standings/", views.standings, name="standings"),
    path(T + "standings/draw/", views.standings_draw, name="standings-draw"),
    path(T + "finish/", views.tournament_finish, name="tournament-finish"),
    path(R, views.round_detail, name="round-detail"),
    path(R + "tables/", views.round_tables, name="round-tables"),
    path(R + "events/", views.round_events, name="round-events"),
    path(R + "cards/", views.round_cards, name="round-cards"),
    path(R + "swap/", views.tables_swap, name="tables-swap"),
    path(R + "undo/", views.round_undo, name="round-undo"),
    path(R + "close/", views.round_close, name="round-close"),
    path(R + "tables/<int:table>/forfeit/", views.table_forfeit, name="table-forfeit"),
    path(
        R + "tables/<int:table>/forfeit/undo/",
        views.table_forfeit_undo,
        name="table-forfeit-undo",
    ),
    path(T + "final/add/", knockout.final_stage_add, name="final-add"),
    path(F, knockout.final_detail, name="final"),
    path(F + "start/", knockout.final_stage_start, name="final-start"),
    path(F + "start/undo/", knockout.final_stage_start_undo, name="final-start-undo"),
    path(F + "remove/", knockout.final_stage_remove, name="final-remove"),
    path(F + "bracket/", knockout.final_bracket, name="final-bracket"),
    path(F + "events/", knockout.final_events, name="final-events"),
    path(F + "matches/<int:pk>/forfeit/", knockout.match_forfeit, name="match-forfeit"),
    path(
        F + "matches/<int:pk>/forfeit/undo/",
        knockout.match_forfeit_undo,
        name="match-forfeit-undo",
    ),
]
