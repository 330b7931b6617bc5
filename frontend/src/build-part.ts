// Part 3, Build: the editor, Run / Check / Stop / Reset, streamed output and the checks list.
import { setUpEarlierVersions } from "./earlier-versions";
import { createEditor, type Editor } from "./editor";
import { recordEvent } from "./events";
import { MAX_DRAFT, type Progress } from "./progress";
import { type CheckResult, type Python, StoppedError } from "./python";

export interface ExerciseData {
  lesson: string; course: string; filename: string; starter: string; checksUrl: string;
  checkNames: string[]; hints: string[];
  codealong: Array<{ title: string; caption: string; find: string; type: string }>;
  solutionUrl: string; runtimeUrl: string;
}

const CHECK_TIMEOUT_S = 10;
const STATUS_WORDS: Record<string, string> = {
  pass: "passed", fail: "failed", error: "error", "not-attempted": "not attempted", "not-run": "not run",
};

function $(root: ParentNode, selector: string): HTMLElement {
  const element = root.querySelector<HTMLElement>(selector);
  if (!element) throw new Error(`missing ${selector}`);
  return element;
}

export function setUpBuild(root: HTMLElement, exercise: ExerciseData, progress: Progress, python: Python): Editor {
  const number = exercise.lesson;
  const output = $(root, "[data-output]");
  const checksList = $(root, "[data-checks]");
  const summary = $(root, "[data-checks-summary]");
  const buttons = {
    run: $(root, '[data-action="run"]') as HTMLButtonElement,
    check: $(root, '[data-action="check"]') as HTMLButtonElement,
    stop: $(root, '[data-action="stop"]') as HTMLButtonElement,
    reset: $(root, '[data-action="reset"]') as HTMLButtonElement,
  };

  let saveTimer: number | undefined;
  let unsaved: (() => void) | null = null;
  // A reload right after typing must not lose the last keystrokes: save them as the page goes.
  window.addEventListener("pagehide", () => { window.clearTimeout(saveTimer); unsaved?.(); });
  const holder = $(root, "[data-editor]");
  holder.replaceChildren();
  // Said next to the editor when a change would make the code longer than a draft can be.
  const tooLong = document.createElement("p");
  tooLong.className = "editor-note";
  tooLong.setAttribute("role", "alert");
  tooLong.dataset.editorNote = "";
  tooLong.hidden = true;
  holder.after(tooLong);
  const editor = createEditor(holder, {
    text: progress.adoptDraft(number) ?? exercise.starter,
    label: `${exercise.filename}, your code`,
    maxLength: MAX_DRAFT,
    onTooLong: (length) => {
      tooLong.textContent = `That change was not made: it would make your code ${length.toLocaleString("en")} ` +
        `characters long, and the editor holds at most ${MAX_DRAFT.toLocaleString("en")} (a lesson's code is a few ` +
        "thousand). Your code is as it was.";
      tooLong.hidden = false;
    },
    onChange: (text) => {
      tooLong.hidden = true;
      window.clearTimeout(saveTimer);
      unsaved = () => {
        unsaved = null;
        if (progress.lesson(number).status === "not-started" && text !== exercise.starter) {
          recordEvent(exercise.course, number, { kind: "start" });
        }
        progress.update(number, (lesson) => {
          lesson.draft = text;
          if (lesson.status === "not-started" && text !== exercise.starter) lesson.status = "in-progress";
        });
      };
      saveTimer = window.setTimeout(() => unsaved?.(), 250);
    },
    onRun: () => void run(),
  });

  // A newer draft that arrives while the page is open (another device, through the sync) is
  // shown if the learner has not typed since the editor's text was loaded; otherwise their next
  // save makes it an earlier version they can restore.
  progress.onChange(() => {
    const adopted = progress.adoptedDraft(number);
    const current = progress.lesson(number);
    if (current.draft === undefined || unsaved || (adopted && editor.text() !== adopted.draft)) return;
    if (adopted && adopted.device === current.draftDevice && adopted.at === current.draftAt) return;
    if (!adopted && editor.text() !== exercise.starter) return;
    if (editor.text() !== current.draft) editor.setText(current.draft);
    progress.adoptDraft(number);
  });
  setUpEarlierVersions(tooLong, number, progress, editor);

  function busy(on: boolean): void {
    buttons.run.disabled = on;
    buttons.check.disabled = on;
    buttons.stop.disabled = !on;
  }

  function write(text: string, stream: "stdout" | "stderr" | "note"): void {
    const span = document.createElement("span");
    span.className = stream;
    // A line number in a traceback becomes a link that puts the editor's cursor on that line.
    const pattern = new RegExp(`File "${exercise.filename.replace(/\./g, "\\.")}", line (\\d+)`, "g");
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      span.append(text.slice(last, match.index));
      const link = document.createElement("button");
      link.type = "button";
      link.className = "line-link";
      link.textContent = match[0];
      const line = Number(match[1]);
      link.addEventListener("click", () => editor.goToLine(line));
      span.append(link);
      last = (match.index ?? 0) + match[0].length;
    }
    span.append(text.slice(last));
    output.append(span);
    output.scrollTop = output.scrollHeight;
  }

  async function run(): Promise<void> {
    if (python.busy) return;
    output.replaceChildren();
    busy(true);
    try {
      const result = await python.run(editor.text(), exercise.filename, write);
      if (result.status === "ok" && !output.textContent) write("(your code ran and printed nothing)\n", "note");
      if (result.status === "error" && result.line) editor.goToLine(result.line);
    } catch (error) {
      write(`${(error as Error).message}\n`, error instanceof StoppedError ? "note" : "stderr");
    } finally {
      busy(false);
    }
  }

  function showChecks(result: CheckResult, source: string): void {
    checksList.replaceChildren();
    let opened = false;
    for (const item of result.checks) {
      const li = document.createElement("li");
      li.className = "check";
      li.dataset.checkStatus = item.status;
      const details = document.createElement("details");
      const title = document.createElement("summary");
      const badge = document.createElement("span");
      badge.className = "check-status";
      badge.textContent = STATUS_WORDS[item.status] ?? item.status;
      title.append(badge, ` ${item.name}`);
      const message = document.createElement("p");
      message.className = "check-message";
      message.textContent = item.message || (item.status === "pass" ? "Passed." : "");
      details.append(title, message);
      if (!opened && item.status !== "pass") { details.open = true; opened = true; }
      li.append(details);
      checksList.append(li);
    }
    const passed = result.checks.filter((c) => c.status === "pass").length;
    summary.textContent = result.status === "pass"
      ? `All ${passed} checks pass. These lines are yours now.`
      : result.status === "not-attempted"
        ? "Not attempted yet: this is still the starter. Fill in the TODOs first."
        : `${passed} / ${result.checks.length} checks pass.`;
    summary.dataset.status = result.status;
    if (result.stdout) write(result.stdout, "stdout");
    if (result.traceback) write(result.traceback, "stderr");
    // Code checked within the moment before its draft is saved still started the lesson.
    if (progress.lesson(number).status === "not-started" && result.status !== "not-attempted") {
      recordEvent(exercise.course, number, { kind: "start" });
    }
    recordEvent(exercise.course, number, { kind: "check", status: result.status, checks: result.checks, code: source });
    progress.update(number, (lesson) => {
      lesson.checks = { passed, total: result.checks.length };
      if (result.status === "pass") lesson.status = "done";
      else if (lesson.status === "not-started" && result.status !== "not-attempted") lesson.status = "in-progress";
    });
  }

  // The lesson's checks.py and reference solution, fetched once, as Python starts (a failed
  // fetch is tried again on Check).
  let checks: Promise<{ checks: string; reference: string }> | null = null;
  function checksSource(): Promise<{ checks: string; reference: string }> {
    checks ??= fetch(exercise.checksUrl).then(async (response) => {
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      return (await response.json()) as { checks: string; reference: string };
    }).catch((error: Error) => {
      checks = null;
      throw new Error(`The lesson's checks could not be loaded (${error.message}). Check your connection, then press Check again.`);
    });
    return checks;
  }
  void checksSource().catch(() => undefined);

  async function check(): Promise<void> {
    if (python.busy) return;
    output.replaceChildren();
    summary.textContent = "Checking…";
    busy(true);
    try {
      const source = editor.text();
      const bundle = await checksSource();
      showChecks(await python.check({
        lesson: number, source, checks: bundle.checks, reference: bundle.reference, starter: exercise.starter,
        filename: exercise.filename, timeout: CHECK_TIMEOUT_S,
      }), source);
    } catch (error) {
      summary.textContent = (error as Error).message;
      summary.dataset.status = "error";
    } finally {
      busy(false);
    }
  }

  buttons.run.addEventListener("click", () => void run());
  buttons.check.addEventListener("click", () => void check());
  buttons.stop.addEventListener("click", () => python.stop("user"));
  buttons.reset.addEventListener("click", () => {
    if (editor.text() === exercise.starter) return;
    if (!window.confirm("Replace your code with the starter? Your current code will be lost.")) return;
    editor.setText(exercise.starter);
    editor.focus();
  });
  return editor;
}
