"""The public pages of the clubs (namespace ``public``, see config/urls.py). A
club's page and the home page show its tournaments too, so they live with the
app above, in tournaments/public."""

from django.contrib.auth import views as auth_views
from django.urls import path

from clubs.public import views

urlpatterns = [
    # The link an owner gives a new organizer, to choose the login's password.
    path("welcome/<uidb64>/<token>/", views.organizer_welcome, name="organizer-welcome"),
]

# Names outside any namespace: Django's auth and the settings refer to them.
site_urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
