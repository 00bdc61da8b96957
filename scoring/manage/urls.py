"""The organizer's pages for club nights and parties (namespace ``manage``, under
/manage/, see config/urls.py)."""

from django.urls import path

from scoring.manage import views

urlpatterns = [
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("nights/<int:pk>/", views.night_detail, name="night-detail"),
    path("nights/<int:pk>/tables/", views.night_tables, name="night-tables"),
    path("nights/<int:pk>/events/", views.night_events, name="night-events"),
    path("nights/<int:pk>/results/", views.night_results, name="night-results"),
    path("nights/<int:pk>/results.csv", views.night_results_csv, name="night-results-csv"),
    path("nights/<int:pk>/stake/", views.night_stake, name="night-stake"),
    path("nights/<int:pk>/close/", views.night_close, name="night-close"),
    path("parties/<int:pk>/", views.party_detail, name="party-detail"),
    path("parties/<int:pk>/cards/", views.party_cards, name="party-cards"),
    path("parties/<int:pk>/cancel/", views.party_cancel, name="party-cancel"),
    path("parties/<int:pk>/rematch/", views.party_rematch, name="party-rematch"),
    path("seats/<int:pk>/link/", views.seat_link, name="seat-link"),
    path("seats/<int:pk>/swap/", views.seat_swap, name="seat-swap"),
    path("hands/<int:pk>/decide/", views.hand_decide, name="hand-decide"),
]
