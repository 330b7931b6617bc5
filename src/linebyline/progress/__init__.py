"""A learner's progress outside the browser, and its way to the account.

- merge: the progress document and its merge rules, one set for the server and the terminal.
- local: this terminal's progress, kept in the user's data folder.
- account: the terminal's link to an account (login, token, what the server refused).
- events: what a signed-in learner did, queued for the teachers' view.
- sync: merging this machine's progress with the account's, and sending the events.
"""
