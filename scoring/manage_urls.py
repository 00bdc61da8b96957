"""The organizer's pages for club nights and parties, under /manage/."""

from django.urls import path

from scoring import manage_views

app_name = "manage"
urlpatterns = [
    path("parties/<int:pk>/", manage_views.party_detail, name="party-detail"),
    path("parties/<int:pk>/cards/", manage_views.party_cards, name="party-cards"),
    path("seats/<int:pk>/link/", manage_views.seat_link, name="seat-link"),
    path("hands/<int:pk>/decide/", manage_views.hand_decide, name="hand-decide"),
]
