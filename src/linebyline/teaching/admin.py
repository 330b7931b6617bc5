from django.contrib import admin

from .models import CheckFailure, Classroom, LearningEvent, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]
    readonly_fields = ["joined"]


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ["name", "course", "shown_code", "created"]
    search_fields = ["name", "join_code", "teachers__username"]
    filter_horizontal = ["teachers"]
    readonly_fields = ["created"]
    inlines = [MembershipInline]


class CheckFailureInline(admin.TabularInline):
    model = CheckFailure
    extra = 0
    can_delete = False
    readonly_fields = ["name", "status", "message"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LearningEvent)
class LearningEventAdmin(admin.ModelAdmin):
    """Read-only: events come from learners' browsers."""

    list_display = ["created", "course", "lesson", "kind", "status", "hint", "learner"]
    list_filter = ["course", "kind", "status", "lesson"]
    readonly_fields = ["course", "lesson", "kind", "learner", "user", "status", "hint", "created"]
    inlines = [CheckFailureInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
