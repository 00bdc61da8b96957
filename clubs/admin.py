from django.contrib import admin

from clubs import services
from clubs.models import Club, ClubRecord, Invitation, Membership, Player
from web.client import client_address


def _address(request):
    return client_address(request)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "founded", "language", "time_zone"]
    list_filter = ["city", "language"]
    search_fields = ["name", "city", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def save_formset(self, request, form, formset, change):
        # Memberships are saved by the service, so the club's record sees them.
        if formset.model is not Membership:
            return super().save_formset(request, form, formset, change)
        for membership in formset.save(commit=False):
            services.membership_save(
                membership=membership, user=request.user, address=_address(request)
            )
        for membership in formset.deleted_objects:
            services.membership_end(
                membership=membership, user=request.user, address=_address(request)
            )
        return None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "user"]
    list_filter = ["memberships__club", "memberships__role"]
    search_fields = ["name", "email", "user__username"]
    list_select_related = ["user"]
    autocomplete_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "role", "active", "listed", "since"]
    list_filter = ["club", "role", "active", "listed"]
    search_fields = ["player__name", "club__name"]
    list_select_related = ["player", "club"]
    autocomplete_fields = ["player", "club"]

    def save_model(self, request, obj, form, change):
        services.membership_save(membership=obj, user=request.user, address=_address(request))

    def delete_model(self, request, obj):
        services.membership_end(membership=obj, user=request.user, address=_address(request))

    def delete_queryset(self, request, queryset):
        for membership in queryset.select_related("player", "club"):
            self.delete_model(request, membership)


@admin.register(ClubRecord)
class ClubRecordAdmin(admin.ModelAdmin):
    """Read only: the record is append-only."""

    list_display = ["at", "club", "action", "user", "username", "address"]
    list_filter = ["action", "club"]
    search_fields = ["username", "user__username", "club__name"]
    list_select_related = ["club", "user"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Read only: an invitation is made and taken back by its club's owner, whose
    pages record both; the key is not kept, so nothing here could be sent again."""

    list_display = ["club", "made_at", "expires_at", "revoked_at", "accepted_at", "accepted_by"]
    list_filter = ["club"]
    list_select_related = ["club", "accepted_by"]
    exclude = ["digest"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
