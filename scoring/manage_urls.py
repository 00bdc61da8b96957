"""The organizer's pages for club nights and parties, under /manage/."""

from django.urls import path  # noqa: F401

app_name = "manage"
urlpatterns = []
