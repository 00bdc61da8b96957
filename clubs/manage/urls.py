"""The organizer's pages of the clubs (namespace ``manage``, under /manage/)."""

from django.urls import path

from clubs.manage import founding, invitations, roster, views

urlpatterns = [
    path("", views.club_list, name="club-list"),
    path("new-club/", founding.club_create, name="club-create"),
    path("clubs/<slug:slug>/invitations/", invitations.invitation_list, name="invitation-list"),
    path(
        "clubs/<slug:slug>/invitations/<int:pk>/revoke/",
        invitations.invitation_revoke,
        name="invitation-revoke",
    ),
    path("clubs/<slug:slug>/settings/", views.club_settings, name="club-settings"),
    path("clubs/<slug:slug>/members/", views.member_list, name="member-list"),
    path("clubs/<slug:slug>/members/add/", views.member_add, name="member-add"),
    path("clubs/<slug:slug>/members/import/", roster.member_import, name="member-import"),
    path(
        "clubs/<slug:slug>/members/import/preview/",
        roster.member_import_preview,
        name="member-import-preview",
    ),
    path(
        "clubs/<slug:slug>/members/import/cancel/",
        roster.member_import_cancel,
        name="member-import-cancel",
    ),
    path(
        "clubs/<slug:slug>/members/export.csv",
        roster.member_export_csv,
        name="member-export-csv",
    ),
    path(
        "clubs/<slug:slug>/members/export.xlsx",
        roster.member_export_xlsx,
        name="member-export-xlsx",
    ),
    path("clubs/<slug:slug>/members/<int:pk>/", views.member_edit, name="member-edit"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/deactivate/",
        views.member_deactivate,
        name="member-deactivate",
    ),
    path(
        "clubs/<slug:slug>/members/<int:pk>/reactivate/",
        views.member_reactivate,
        name="member-reactivate",
    ),
    path("clubs/<slug:slug>/guests/add/", views.guest_add, name="guest-add"),
    path("clubs/<slug:slug>/organizers/", views.organizer_list, name="organizer-list"),
    path("clubs/<slug:slug>/organizers/invite/", views.organizer_invite, name="organizer-invite"),
    path(
        "clubs/<slug:slug>/organizers/<int:pk>/link/",
        views.organizer_link,
        name="organizer-link",
    ),
    path(
        "clubs/<slug:slug>/organizers/<int:pk>/revoke/",
        views.organizer_revoke,
        name="organizer-revoke",
    ),
    path("api-keys/", views.token_list, name="token-list"),
    path("api-keys/<int:token_id>/revoke/", views.token_revoke, name="token-revoke"),
]
