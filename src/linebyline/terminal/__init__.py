"""The course in a terminal: what the `linebyline` commands print and ask (cli.py parses them).

Rendering uses rich (Markdown, colour, a pager) on a terminal only, imported when a command
prints there: `check` run by an editor on save, or with its output piped, prints plain text and
never pays for it.
"""
