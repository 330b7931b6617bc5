from django import forms

from .models import CODE_ALPHABET, CODE_LENGTH, normalise_code
from .stats import PERIODS


class ClassForm(forms.Form):
    name = forms.CharField(max_length=100, strip=True, label="Class name",
                           help_text="What you and your learners call it, e.g. “Thursday evening group”.")


class JoinForm(forms.Form):
    code = forms.CharField(label="Join code", max_length=20, strip=True,
                           help_text="The 8 letters and digits your teacher gave you, e.g. K7QX-M3PD.")

    def clean_code(self) -> str:
        code = normalise_code(self.cleaned_data["code"])
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            raise forms.ValidationError(
                f"A join code has {CODE_LENGTH} letters and digits (a dash in the middle is "
                "optional); check it against the one your teacher gave you.")
        return code


class PeriodForm(forms.Form):
    period = forms.ChoiceField(choices=list(PERIODS.items()), required=False, label="Show")

    def chosen(self) -> str:
        """The period asked for; all time when none (or nonsense) is."""
        if not self.is_valid():
            return "all"
        return self.cleaned_data.get("period") or "all"
