"""The organizer's tournament pages (namespace ``manage``, under /manage/, see config/urls.py)."""

from django.urls import path

from tournaments.manage import forfeits, knockout, registration, rounds, withdrawals

T = "tournaments/<slug:slug>/"
R = T + "rounds/<int:number>/"
F = T + "final/"

urlpatterns = [
    path(
        "clubs/<slug:slug>/tournaments/", registration.tournament_create, name="tournament-create"
    ),
    path(
        "clubs/<slug:slug>/tournaments/import/", registration.archive_import, name="archive-import"
    ),
    path(T, registration.tournament_detail, name="tournament-detail"),
    path(T + "register/", registration.entrant_register, name="entrant-register"),
    path(T + "guests/", registration.entrant_register_guests, name="entrant-guests"),
    path(T + "entrants/<int:pk>/check-in/", registration.entrant_check_in, name="entrant-check-in"),
    path(T + "check-in/", registration.entrants_check_in, name="entrants-check-in"),
    path(T + "entrants/", registration.entrant_rows, name="entrant-rows"),
    path(T + "door/", registration.door, name="door"),
    path(T + "door/link/", registration.door_link, name="door-link"),
    path(T + "entrants/<int:pk>/withdraw/", withdrawals.entrant_withdraw, name="entrant-withdraw"),
    path(T + "apart/", registration.keep_apart_add, name="keep-apart"),
    path(T + "apart/<int:pk>/remove/", registration.keep_apart_remove, name="keep-apart-remove"),
    path(
        T + "entrants/<int:pk>/reinstate/", withdrawals.entrant_reinstate, name="entrant-reinstate"
    ),
    path(T + "start/", rounds.round_start, name="round-start"),
    path(T + "pair/", rounds.round_pair, name="round-pair"),
    path(T + "standings/", rounds.standings, name="standings"),
    path(T + "plan/cards/", rounds.plan_cards, name="plan-cards"),
    path(T + "standings/draw/", rounds.standings_draw, name="standings-draw"),
    path(T + "finish/", rounds.tournament_finish, name="tournament-finish"),
    path(R, rounds.round_detail, name="round-detail"),
    path(R + "tables/", rounds.round_tables, name="round-tables"),
    path(R + "events/", rounds.round_events, name="round-events"),
    path(R + "cards/", rounds.round_cards, name="round-cards"),
    path(R + "swap/", rounds.tables_swap, name="tables-swap"),
    path(R + "undo/", rounds.round_undo, name="round-undo"),
    path(R + "close/", rounds.round_close, name="round-close"),
    path(R + "tables/<int:table>/forfeit/", forfeits.table_forfeit, name="table-forfeit"),
    path(
        R + "tables/<int:table>/forfeit/undo/",
        forfeits.table_forfeit_undo,
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
