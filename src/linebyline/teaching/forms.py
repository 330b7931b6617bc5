from django import forms

from .models import CODE_ALPHABET, CODE_LENGTH, Classroom, normalise_code
from .roles import find_account
from .scope import PERIODS


class ClassForm(forms.Form):
    name = forms.CharField(max_length=100, strip=True, label="Class name",
                           help_text="What you and your learners call it, e.g. “Thursday evening group”.")


class ClassSettingsForm(forms.ModelForm):
    name = forms.CharField(max_length=100, strip=True, label="Class name")
    stuck_failures = forms.IntegerField(
        min_value=2, max_value=50, label="Stuck after failing the same check",
        help_text="times in a row (a failure counts for the run's first failing check only)")
    stuck_hours = forms.IntegerField(
        min_value=1, max_value=24 * 60, label="Stuck after trying a lesson for",
        help_text="hours without passing it (24 is a day, 168 a week)")

    class Meta:
        model = Classroom
        fields = ["name", "stuck_failures", "stuck_hours"]


class CoTeacherForm(forms.Form):
    username = forms.CharField(max_length=150, strip=True, label="Co-teacher's user name",
                               help_text="The user name of their account (shown on their account page).")

    def clean(self):
        cleaned = super().clean()
        name = cleaned.get("username")
        if name:
            user = find_account(name)
            if user is None:
                self.add_error("username", f"No account is called “{name}”. Ask them for the user "
                                           "name on their account page; they may need to sign up first.")
            cleaned["user"] = user
        return cleaned


class DeleteClassForm(forms.Form):
    name = forms.CharField(max_length=100, strip=False, label="Type the class's name to delete it")

    def __init__(self, classroom: Classroom, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.classroom = classroom

    def clean_name(self) -> str:
        typed = self.cleaned_data["name"]
        if typed.strip() != self.classroom.name:
            raise forms.ValidationError(f"That is not the class's name; type “{self.classroom.name}” "
                                        "exactly, or go back.")
        return typed


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


class InviteForm(forms.Form):
    note = forms.CharField(max_length=100, required=False, strip=True,
                           label="Who it is for (optional)",
                           help_text="A note for you, e.g. their name; the invite works for whoever "
                                     "opens it.")
