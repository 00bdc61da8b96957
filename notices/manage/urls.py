"""The organizer's page of the notices (namespace ``manage``, under /manage/)."""

from django.urls import path

from notices.manage import views

urlpatterns = [
    path("clubs/<slug:slug>/notices/", views.notice_list, name="notice-list"),
]
