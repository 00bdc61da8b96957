from django.contrib.auth import views as auth_views
from django.urls import path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("manage/", views.manage, name="manage"),
    path("manage/clubs/<slug:slug>/", views.club_manage, name="club-manage"),
    path("manage/nights/<int:pk>/", views.night_detail, name="night-detail"),
]

# Names outside the namespace: Django's auth and the settings refer to them.
site_urlpatterns = [
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
