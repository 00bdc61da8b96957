from django.contrib import admin

from clubs.models import Club, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "founded"]
    list_filter = ["city"]
    search_fields = ["name", "city", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


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
