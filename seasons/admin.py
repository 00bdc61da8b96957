"""The site's admin for a club's seasons. Ratings and their history are derived
from the parties (``manage.py rebuild_ratings`` makes them again) and the season
record is append-only, so the admin shows them and changes nothing; seasons are
changed on the organizer's pages, where the service keeps the record."""

from django.contrib import admin

from seasons.models import PlayerLink, Rating, RatingChange, RatingLedger, Season, SeasonRecord


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    """Derived data: a hand-made change would be undone by the next rebuild."""

    list_display = ["player", "club", "game", "mu", "sigma", "parties", "won", "last_played"]
    list_filter = ["club", "game"]
    search_fields = ["player__name", "club__name"]
    list_select_related = ["player", "club"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = [
        "finished_at",
        "club",
        "player",
        "game",
        "party",
        "mu",
        "sigma",
        "won",
        "plus_minus",
    ]
    list_filter = ["club", "game"]
    search_fields = ["player__name"]
    list_select_related = ["player", "club"]


@admin.register(RatingLedger)
class RatingLedgerAdmin(ReadOnlyAdmin):
    list_display = ["club", "audit_through"]
    list_select_related = ["club"]


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    """Shown only: creating, closing and reopening a season go through its services
    on the organizer's pages, which write the season's record."""

    list_display = ["name", "club", "starts", "ends", "game", "scheme", "published", "closed_at"]
    list_filter = ["club", "published", "scheme"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]


@admin.register(PlayerLink)
class PlayerLinkAdmin(ReadOnlyAdmin):
    """The token is the player's key to his page: listed without it."""

    list_display = ["player", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["player__name"]
    list_select_related = ["player", "club"]
    exclude = ["token"]


@admin.register(SeasonRecord)
class SeasonRecordAdmin(ReadOnlyAdmin):
    """Read only: the record is append-only."""

    list_display = ["at", "club", "season", "action", "user", "address"]
    list_filter = ["action", "club"]
    search_fields = ["user__username", "club__name", "season__name"]
    list_select_related = ["club", "season", "user"]
