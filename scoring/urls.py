from django.urls import path

from scoring import views

app_name = "scoring"
urlpatterns = [
    path("table/<str:token>/", views.table, name="table"),
    path("table/<str:token>/state/", views.table_state, name="table-state"),
    path("table/<str:token>/enter/", views.table_enter, name="table-enter"),
    path("table/<str:token>/confirm/", views.table_confirm, name="table-confirm"),
]
