// The Build part's editor and its draft: saved as the learner types (and as the page goes), a
// newer draft from another device shown when the learner has not typed, a change that would make
// the draft too long refused with a note, and earlier versions offered under the editor.
import type { ExerciseData } from "./exercise";
import { isStarter } from "./levels";
import { setUpEarlierVersions } from "./earlier-versions";
import { createEditor, type Editor } from "./editor";
import { recordEvent } from "./events";
import { MAX_DRAFT, type Progress } from "./progress";

const SAVE_AFTER_MS = 250;

/** The note beside the editor that says a change was refused. */
function tooLongNote(holder: HTMLElement): HTMLElement {
  const note = document.createElement("p");
  note.className = "editor-note";
  note.setAttribute("role", "alert");
  note.dataset.editorNote = "";
  note.hidden = true;
  holder.after(note);
  return note;
}

/** Saves the draft a moment after the last keystroke, and at once when the page goes. */
function draftSaver(exercise: ExerciseData, progress: Progress) {
  const number = exercise.lesson;
  let timer: number | undefined;
  let unsaved: (() => void) | null = null;
  window.addEventListener("pagehide", () => { window.clearTimeout(timer); unsaved?.(); });
  return {
    pending: () => unsaved !== null,
    save(text: string): void {
      window.clearTimeout(timer);
      unsaved = () => {
        unsaved = null;
        if (progress.lesson(number).status === "not-started" && !isStarter(exercise, text)) {
          recordEvent(exercise.course, number, { kind: "start" });
        }
        progress.update(number, (lesson) => {
          lesson.draft = text;
          if (lesson.status === "not-started" && !isStarter(exercise, text)) lesson.status = "in-progress";
        });
      };
      timer = window.setTimeout(() => unsaved?.(), SAVE_AFTER_MS);
    },
  };
}

/** A newer draft that arrives while the page is open (another device, through the sync) is shown
 *  if the learner has not typed since the editor's text was loaded; otherwise their next save
 *  makes it an earlier version they can restore. */
function followNewerDrafts(exercise: ExerciseData, progress: Progress, editor: Editor, typing: () => boolean): void {
  const number = exercise.lesson;
  progress.onChange(() => {
    const adopted = progress.adoptedDraft(number);
    const current = progress.lesson(number);
    if (current.draft === undefined || typing() || (adopted && editor.text() !== adopted.draft)) return;
    if (adopted && adopted.device === current.draftDevice && adopted.at === current.draftAt) return;
    if (!adopted && !isStarter(exercise, editor.text())) return;
    if (editor.text() !== current.draft) editor.setText(current.draft);
    progress.adoptDraft(number);
  });
}

/** The editor, opened on the learner's draft, else on `starter` (the starter at the level the
 *  course home chose). */
export function setUpDraftEditor(holder: HTMLElement, exercise: ExerciseData, progress: Progress,
                                 starter: string, onRun: () => void): Editor {
  holder.replaceChildren();
  const note = tooLongNote(holder);
  const saver = draftSaver(exercise, progress);
  const keys = document.getElementById("editor-keys");
  const editor = createEditor(holder, {
    text: progress.adoptDraft(exercise.lesson) ?? starter,
    label: `${exercise.filename}, your code`,
    describedBy: keys ? keys.id : undefined,
    maxLength: MAX_DRAFT,
    onTooLong: (length) => {
      note.textContent = `That change was not made: it would make your code ${length.toLocaleString("en")} ` +
        `characters long, and the editor holds at most ${MAX_DRAFT.toLocaleString("en")} (a lesson's code is a few ` +
        "thousand). Your code is as it was.";
      note.hidden = false;
    },
    onChange: (text) => {
      note.hidden = true;
      saver.save(text);
    },
    onRun,
  });
  followNewerDrafts(exercise, progress, editor, saver.pending);
  setUpEarlierVersions(note, exercise.lesson, progress, editor);
  return editor;
}
