from django.db import models

COMMENT_LIMIT = 1000


class LessonFeedback(models.Model):
    """One answer to "Was this lesson clear?", anonymous unless the learner is signed in."""

    course = models.SlugField(max_length=60)
    lesson = models.CharField(max_length=10, help_text="lesson number, e.g. 7.5")
    clear = models.BooleanField(help_text="did the learner find the lesson clear?")
    comment = models.TextField(blank=True, max_length=COMMENT_LIMIT)
    user = models.ForeignKey("auth.User", null=True, blank=True, on_delete=models.SET_NULL)
    # Who answered, as the teaching app's events name them ("u<id>", "b<browser id>"; empty when
    # the form came without the browser's id): each learner's latest answer counts once.
    learner = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = "lesson feedback"
        verbose_name_plural = "lesson feedback"
        indexes = [models.Index(fields=["course", "lesson"]),
                   models.Index(fields=["course", "learner", "lesson"])]

    def __str__(self) -> str:
        return f"{self.course} {self.lesson}: {'clear' if self.clear else 'not clear'}"
