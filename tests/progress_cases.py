"""Hypothesis strategies for progress documents, shared by the merge's law tests, the test that
the browser's merge agrees with Python's, and bench/merge_laws.py.

The alphabets are small on purpose: the interesting cases are collisions (two devices, one time;
one device, two texts at the same time; more devices than the earlier versions kept).
"""
from __future__ import annotations

from hypothesis import strategies as st

from linebyline.progress import merge as pm

DEVICES = ["b-a", "b-b", "b-c", "cli-d", "b-e", "b-f", "b-g", "v1-0badf00d"]
TIMES = st.one_of(st.integers(0, 6), st.sampled_from([1_700_000_000_000, pm.MAX_TIME]))
# Texts whose order differs between code points and UTF-16 units (U+FFFF vs an emoji) included.
TEXTS = st.sampled_from(["", "a", "b", "x = 1\n", "\uffff", "\U0001f600", "é", "<b>hi</b>"])


def versions() -> st.SearchStrategy[dict]:
    return st.builds(
        lambda draft, at, device, base: {"draft": draft, "at": at, "device": device, "base": base},
        TEXTS, TIMES, st.sampled_from(DEVICES),
        st.dictionaries(st.sampled_from(DEVICES), TIMES, max_size=2))


@st.composite
def lessons(draw) -> dict:
    status = draw(st.sampled_from(pm.STATUSES))
    raw: dict = {"status": status, "hintsShown": draw(st.integers(0, 4))}
    if status == "done" and draw(st.booleans()):
        raw["doneAt"] = draw(TIMES)
    raw["quiz"] = draw(st.dictionaries(
        st.sampled_from(["7.4-q1", "7.4-q2", "review7-q1"]),
        st.fixed_dictionaries({"answer": st.sampled_from(["0", "1", "2", "-2.5", "\uffff"]),
                               "correct": st.booleans(), "at": TIMES}),
        max_size=2))
    if status == "done" and draw(st.booleans()):
        raw["passedCode"], raw["passedAt"] = draw(TEXTS), draw(TIMES)
    if draw(st.booleans()):
        total = draw(st.integers(0, 5))
        raw["checks"] = {"passed": draw(st.integers(0, total)), "total": total}
    # Four per lesson: more than MAX_EARLIER + 1 devices meet when three documents merge.
    drafts = draw(st.lists(versions(), max_size=4))
    if drafts:
        current, *earlier = drafts
        raw.update(draft=current["draft"], draftAt=current["at"], draftDevice=current["device"],
                   draftBase=current["base"])
        if earlier:
            raw["earlier"] = earlier[:pm.MAX_EARLIER]
    return pm.read_lesson(raw, "a generated lesson")


def documents() -> st.SearchStrategy[dict]:
    """Lessons of one course, in the version-2 form (as read_document gives them)."""
    return st.dictionaries(st.sampled_from(["1.1", "7.4", "7.5"]), lessons(), max_size=2)


def settings_entries() -> st.SearchStrategy[dict]:
    """A document's settings, as progress.merge.read_settings gives them."""
    return st.dictionaries(
        st.sampled_from(sorted(pm.SETTINGS)),
        st.fixed_dictionaries({"value": st.sampled_from(pm.SETTINGS["todoLevel"]), "at": TIMES}),
        max_size=1)
