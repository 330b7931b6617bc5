# The learner's settings for a course (the level of the Build's TODO comments), kept beside the
# lessons of their progress document and merged like them (progress.merge.merge_settings).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_addresses_to_confirm"),
    ]

    operations = [
        migrations.AddField(
            model_name="progressdocument",
            name="settings",
            field=models.TextField(default="{}"),
        ),
    ]
