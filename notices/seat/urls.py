"""Push to the phone at a table (namespace ``seat``): the seat's player lets
Knock tell this phone of his next table, from the seat page's link."""

from django.urls import path

from notices.seat import views

urlpatterns = [
    path("table/<str:token>/notices/", views.push_page, name="notices"),
    path("table/<str:token>/notices/push/", views.push_subscribe, name="notices-push"),
]
