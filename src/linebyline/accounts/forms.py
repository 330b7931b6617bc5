from allauth.account.forms import (
    AddEmailForm,
    ChangePasswordForm,
    LoginForm,
    ResetPasswordForm,
    ResetPasswordKeyForm,
    SetPasswordForm,
    SignupForm,
)
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth.models import User

NAME_LIMIT = 60


class PlainFields:
    """allauth's forms in the site's look: labels above the fields, no placeholders."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.pop("placeholder", None)


class SignInForm(PlainFields, LoginForm):
    pass


class NewAddressForm(PlainFields, AddEmailForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].label = "E-mail address"


class NewPasswordLabels(PlainFields):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        labels = {"oldpassword": "Your current password", "password1": "New password",
                  "password2": "New password confirmation"}
        for name, field in self.fields.items():
            field.label = labels.get(name, field.label)


class PasswordChangeForm(NewPasswordLabels, ChangePasswordForm):
    pass


class PasswordSetForm(NewPasswordLabels, SetPasswordForm):
    pass


class NewPasswordForm(NewPasswordLabels, ResetPasswordKeyForm):
    pass


class SignUpForm(PlainFields, SignupForm):
    """allauth's sign-up form, plus a name to be greeted by; the e-mail address is optional, and
    gets nothing from us but one confirmation until its owner confirms it."""

    first_name = forms.CharField(label="Your name (optional)", max_length=NAME_LIMIT, required=False,
                                 help_text="Shown in the header when you are signed in.")
    field_order = ["username", "first_name", "email", "password1", "password2"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].label = "E-mail (optional)"
        self.fields["email"].help_text = ("Only to reset a forgotten password, once you have "
                                          "confirmed it by the link we send it.")
        self.fields["password2"].label = "Password confirmation"

    def signup(self, request, user) -> None:  # allauth's hook for the form's own fields
        user.first_name = self.cleaned_data["first_name"]
        user.save(update_fields=["first_name"])


class ResetToConfirmedAddressForm(PlainFields, ResetPasswordForm):
    """A reset link goes only to an address its owner has confirmed: an address anyone typed into
    a sign-up form gets nothing. The page that follows is the same whoever asks, for any address."""

    def clean_email(self) -> str:
        email = super().clean_email()
        confirmed = set(EmailAddress.objects.filter(email__iexact=email, verified=True)
                        .values_list("user_id", flat=True))
        self.users = [user for user in self.users if user.pk in confirmed]
        return email


class ProfileForm(forms.ModelForm):
    first_name = forms.CharField(label="Your name", max_length=NAME_LIMIT, required=False)

    class Meta:
        model = User
        fields = ("first_name",)


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
