from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

NAME_LIMIT = 60


class SignUpForm(UserCreationForm):
    """Django's sign-up form, plus a name to be greeted by and an e-mail address for resets."""

    first_name = forms.CharField(label="Your name (optional)", max_length=NAME_LIMIT, required=False,
                                 help_text="Shown in the header when you are signed in.")
    email = forms.EmailField(label="E-mail (optional)", required=False,
                             help_text="Only to reset a forgotten password: without it, a "
                             "forgotten password cannot be reset.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "first_name", "email")


class ProfileForm(forms.ModelForm):
    first_name = forms.CharField(label="Your name", max_length=NAME_LIMIT, required=False)
    email = forms.EmailField(label="E-mail", required=False,
                             help_text="Only to reset a forgotten password.")

    class Meta:
        model = User
        fields = ("first_name", "email")


class TokenForm(forms.Form):
    name = forms.CharField(label="Name it after the machine", max_length=60, initial="my terminal",
                           help_text="e.g. “laptop”, to tell your tokens apart.")


class ConfirmPasswordForm(forms.Form):
    """Deleting an account asks for its password: a session left open is not enough."""

    password = forms.CharField(label="Your password", strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, user, *args, **kwargs) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password: nothing was deleted.")
        return password


