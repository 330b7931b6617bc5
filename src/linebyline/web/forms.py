from django import forms

from .models import COMMENT_LIMIT


class FeedbackForm(forms.Form):
    clear = forms.TypedChoiceField(choices=[("yes", "Yes"), ("no", "No")],
                                   coerce=lambda value: value == "yes")
    comment = forms.CharField(required=False, max_length=COMMENT_LIMIT, strip=True,
                              widget=forms.Textarea)
