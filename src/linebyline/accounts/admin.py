from django.contrib import admin

from .models import AccessToken, ProgressDocument, SetAsideProgress


@admin.register(ProgressDocument)
class ProgressDocumentAdmin(admin.ModelAdmin):
    list_display = ["user", "course", "updated", "revision"]
    list_filter = ["course"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "course", "lessons", "revision", "updated"]

    def has_add_permission(self, request) -> bool:  # progress comes from learners only
        return False


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "hint", "created", "last_used"]
    search_fields = ["user__username", "name"]
    readonly_fields = ["user", "name", "hint", "created", "last_used"]
    exclude = ["digest"]

    def has_add_permission(self, request) -> bool:  # a token is shown once, to its learner
        return False


@admin.register(SetAsideProgress)
class SetAsideProgressAdmin(admin.ModelAdmin):
    list_display = ["user", "course", "reason", "created"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "course", "lessons", "reason", "created"]

    def has_add_permission(self, request) -> bool:  # set aside by the server only
        return False
