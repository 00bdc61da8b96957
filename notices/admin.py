from django.contrib import admin

from notices.models import Choice, Notice, PushSubscription


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["created_at", "club", "player", "kind", "channel", "status"]
    list_filter = ["status", "channel", "kind"]
    raw_id_fields = ["club", "player"]


admin.site.register(Choice)
admin.site.register(PushSubscription)
