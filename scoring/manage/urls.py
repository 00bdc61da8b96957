"""The organizer's pages for club nights and parties (namespace ``manage``, under
/manage/, see config/urls.py)."""

from django.urls import path

from scoring.manage import views

urlpatterns = [
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("nights/<int:pk>/", views.night_detail, name="night-detail"),
    path("parties/<int:pk>/", views.party_detail, name="party-detail"),
    path("parties/<int:pk>/cards/", views.party_cards, name="party-cards"),
    path("seats/<int:pk>/link/", views.seat_link, name="seat-link"),
    path("hands/<int:pk>/decide/", views.hand_decide, name="hand-decide"),
]
