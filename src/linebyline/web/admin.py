from django.contrib import admin

from .models import LessonFeedback


@admin.register(LessonFeedback)
class LessonFeedbackAdmin(admin.ModelAdmin):
    list_display = ["created", "course", "lesson", "clear", "short_comment", "user"]
    list_filter = ["course", "lesson", "clear"]
    search_fields = ["comment"]
    readonly_fields = ["course", "lesson", "clear", "comment", "user", "created"]

    @admin.display(description="comment")
    def short_comment(self, feedback: LessonFeedback) -> str:
        return feedback.comment[:80] + ("…" if len(feedback.comment) > 80 else "")

    def has_add_permission(self, request) -> bool:  # feedback comes from learners only
        return False
