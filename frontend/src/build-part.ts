// Part 3, Build: the editor, Run / Check / Stop / Reset, streamed output and the checks list.
// Its pieces live beside it: build-editor.ts (the editor and the draft), build-output.ts (the
// Output panel), build-checks.ts (the checks list and when a fix may show), build-busy.ts (what
// Run and Check say when the page's Python is busy with something else).
import { busyNotice } from "./build-busy";
import { checksList } from "./build-checks";
import { setUpDraftEditor } from "./build-editor";
import { setUpGraph } from "./build-graph";
import { outputPanel, type OutputPanel } from "./build-output";
import type { DeviceNotes } from "./device-notes";
import { $ } from "./dom";
import type { ExerciseData } from "./exercise";
import type { Editor } from "./editor";
import { recordEvent } from "./events";
import { blocksAt, chosenLevel, isStarter, LEVEL_NAMES, levelOf, starterOf, switchBlocks, type Level } from "./levels";
import { say as sayLive } from "./live";
import { MAX_DRAFT, type Progress } from "./progress";
import { type CheckResult, type Python, type RunResult, StoppedError } from "./python";
import { setUsable } from "./usable";

const CHECK_TIMEOUT_S = 10;

function buildParts(root: HTMLElement) {
  return {
    editor: $(root, "[data-editor]"),
    output: $(root, "[data-output]"),
    runStatus: $(root, "[data-run-status]"),
    checks: $(root, "[data-checks]"),
    summary: $(root, "[data-checks-summary]"),
    busy: $(root, "[data-busy]"),
    take: $(root, '[data-action="take-python"]') as HTMLButtonElement,
    letItFinish: $(root, '[data-action="let-it-finish"]') as HTMLButtonElement,
    run: $(root, '[data-action="run"]') as HTMLButtonElement,
    check: $(root, '[data-action="check"]') as HTMLButtonElement,
    stop: $(root, '[data-action="stop"]') as HTMLButtonElement,
    reset: $(root, '[data-action="reset"]') as HTMLButtonElement,
    levelSwitch: $(root, "[data-level-switch]"),
    levelStatus: $(root, "[data-level-status]"),
  };
}
type BuildParts = ReturnType<typeof buildParts>;

interface ChecksBundle { checks: string; reference: string }

/** The lesson's checks.py and reference solution, fetched once, as Python starts (a failed fetch
 *  is tried again on Check). */
function checksSource(url: string): () => Promise<ChecksBundle> {
  let checks: Promise<ChecksBundle> | null = null;
  const load = (): Promise<ChecksBundle> => {
    checks ??= fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      return (await response.json()) as ChecksBundle;
    }).catch((error: Error) => {
      checks = null;
      throw new Error(`The lesson's checks could not be loaded (${error.message}). Check your connection, then press Check again.`);
    });
    return checks;
  };
  void load().catch(() => undefined);
  return load;
}

/** A check's literal fix shows once the learner has struggled with it, or asked for every hint. */
function fixShown(exercise: ExerciseData, progress: Progress, notes: DeviceNotes): (check: string) => boolean {
  return (check) => notes.failedEveryRecentRun(exercise.lesson, check)
    || (exercise.hints.length > 0 && progress.lesson(exercise.lesson).hintsShown >= exercise.hints.length);
}

/** How a run ended, in one line for the status beside the toolbar (the Output panel has the rest). */
function runEnding(result: RunResult, output: OutputPanel, lastError: string): string {
  if (result.status === "stopped") return "Stopped.";
  if (result.status === "error") {
    return `Your code stopped with an error${result.line ? ` on line ${result.line}` : ""}${lastError ? `: ${lastError}` : ""}.`;
  }
  const lines = output.lines();
  return lines ? `Ran: ${lines} line${lines === 1 ? "" : "s"} printed, in the Output panel.` : "Ran, and printed nothing.";
}

/** The last line of a traceback ("NameError: name 'x' is not defined"). */
function lastLine(text: string): string {
  return text.trim().split("\n").pop()?.trim() ?? "";
}

/** Record a checked run: the progress, this device's notes, and the event for teachers. The code
 *  of a pass is kept as the code that passed, apart from the draft: an edit that fails later
 *  never stands for the learner's own code (My microgpt). */
function recordCheckedRun(exercise: ExerciseData, progress: Progress, notes: DeviceNotes, result: CheckResult,
                          source: string): void {
  const number = exercise.lesson;
  const passed = result.checks.filter((c) => c.status === "pass").length;
  notes.addRun(number, Object.fromEntries(result.checks.map((c) => [c.name, c.status])));
  // Code checked within the moment before its draft is saved still started the lesson.
  if (progress.lesson(number).status === "not-started" && result.status !== "not-attempted") {
    recordEvent(exercise.course, number, { kind: "start" });
  }
  const checks = result.checks.map(({ name, status, message }) => ({ name, status, message }));
  recordEvent(exercise.course, number, { kind: "check", status: result.status, checks, code: source });
  progress.update(number, (lesson) => {
    lesson.checks = { passed, total: result.checks.length };
    if (result.status === "pass") {
      lesson.status = "done";
      if (source.length <= MAX_DRAFT) lesson.passedCode = source;
    } else if (lesson.status === "not-started" && result.status !== "not-attempted") lesson.status = "in-progress";
  });
}

/** Run and Check, with what they say beside the toolbar and in the checks list. */
function buildActions(parts: BuildParts, exercise: ExerciseData, progress: Progress, notes: DeviceNotes,
                      python: Python, editor: Editor, output: OutputPanel, graph: { ran(): void } | null) {
  const checks = checksList(parts.checks, parts.summary, fixShown(exercise, progress, notes));
  progress.onChange(checks.refreshFixes); // the last hint opened shows the fixes held back
  const loadChecks = checksSource(exercise.checksUrl);

  const say = (text: string, tone: "busy" | "" = ""): void => {
    sayLive(parts.runStatus, text);
    parts.runStatus.dataset.tone = tone;
  };
  const busy = busyNotice({
    box: parts.busy, take: parts.take, letItFinish: parts.letItFinish, buttons: { run: parts.run, check: parts.check },
  }, python, say, (action) => (action === "run" ? run() : check()));

  function running(on: boolean): void {
    setUsable(parts.run, !on);
    setUsable(parts.check, !on);
    setUsable(parts.stop, on);
  }

  async function run(): Promise<void> {
    if (python.busy) { busy.tell("run", python.busyWith); return; }
    busy.hide();
    output.clear();
    running(true);
    say("Running…");
    let lastError = "";
    try {
      const result = await python.run(editor.text(), exercise.filename, (text, stream) => {
        if (stream === "stderr" && lastLine(text)) lastError = lastLine(text);
        output.write(text, stream);
      });
      if (result.status === "ok" && output.empty()) output.write("(your code ran and printed nothing)\n", "note");
      say(runEnding(result, output, lastError));
      if (result.status === "error" && result.line) editor.goToLine(result.line);
      if (result.status !== "stopped") graph?.ran();
    } catch (error) {
      output.write(`${(error as Error).message}\n`, error instanceof StoppedError ? "note" : "stderr");
      say((error as Error).message);
    } finally {
      running(false);
    }
  }

  async function check(): Promise<void> {
    if (python.busy) { busy.tell("check", python.busyWith); return; }
    busy.hide();
    output.clear();
    say("");
    parts.summary.textContent = "Checking…";
    running(true);
    try {
      const source = editor.text();
      const { checks: checksPy, reference } = await loadChecks();
      const result = await python.check({
        lesson: exercise.lesson, source, checks: checksPy, reference, starter: exercise.starter,
        ownStarter: exercise.own?.starter ?? "", filename: exercise.filename, timeout: CHECK_TIMEOUT_S,
      });
      recordCheckedRun(exercise, progress, notes, result, source); // first: the fixes depend on this run
      checks.show(result);
      if (result.stdout) output.write(result.stdout, "stdout");
      if (result.traceback) output.write(result.traceback.endsWith("\n") ? result.traceback : `${result.traceback}\n`, "stderr");
    } catch (error) {
      parts.summary.textContent = (error as Error).message;
      parts.summary.dataset.status = "error";
    } finally {
      running(false);
    }
  }

  return { run, check };
}

function confirmReset(editor: Editor, exercise: ExerciseData, starter: string): void {
  if (editor.text() === starter) return;
  if (!isStarter(exercise, editor.text())
      && !window.confirm("Replace your code with the starter? Your current code will be lost.")) return;
  editor.setText(starter);
  editor.focus();
}

/** What the level switch did, in words for its live region. */
function levelNews(level: Level, rewritten: number, atLevel: number, total: number): string {
  const name = LEVEL_NAMES[level].toLowerCase();
  const head = `TODO comments: ${name}.`;
  const changed = total - atLevel; // blocks the learner changed or removed
  const blocks = (n: number): string => `${n} TODO ${n === 1 ? "block" : "blocks"}`;
  if (!rewritten && !changed) return `TODO comments: ${name}, as they already were.`;
  if (!rewritten) return `${head} No TODO comment was rewritten: none is left as the starter had it.`;
  return `${head} ${blocks(rewritten)} of ${total} rewritten; your code is unchanged.`
    + (changed ? ` ${changed} you changed or removed ${changed === 1 ? "stays as it is" : "stay as they are"}.` : "");
}

/** The Build toolbar's switch between the two levels of TODO comments (hidden for a lesson that
 *  has only the guided ones). Switching rewrites the TODO blocks still in the editor as a starter
 *  had them, and says what it did; the learner's code and changed comments stay as they are. */
function levelSwitch(parts: BuildParts, exercise: ExerciseData, progress: Progress, editor: Editor) {
  const own = exercise.own;
  const radios = [...parts.levelSwitch.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
  let level: Level = own ? (levelOf(editor.text(), own.blocks) ?? chosenLevel(progress)) : "guided";
  const show = (): void => { for (const radio of radios) radio.checked = radio.value === level; };
  if (!own) {
    parts.levelSwitch.hidden = true;
    return { level: (): Level => "guided" };
  }
  parts.levelSwitch.hidden = false;
  show();
  for (const radio of radios) {
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      level = radio.value === "own" ? "own" : "guided";
      const before = editor.text();
      const { text, rewritten } = switchBlocks(before, own.blocks, level);
      if (text !== before) editor.setText(text);
      sayLive(parts.levelStatus, levelNews(level, rewritten, blocksAt(text, own.blocks, level), own.blocks.length));
    });
  }
  // A draft from another device may arrive at the other level: the switch follows the editor.
  progress.onChange(() => {
    const found = levelOf(editor.text(), own.blocks);
    if (found && found !== level) { level = found; show(); }
  });
  return { level: (): Level => level };
}

export function setUpBuild(root: HTMLElement, exercise: ExerciseData, progress: Progress, python: Python,
                           notes: DeviceNotes): Editor {
  const parts = buildParts(root);
  let actions: ReturnType<typeof buildActions> | null = null;
  const editor = setUpDraftEditor(parts.editor, exercise, progress, starterOf(exercise, chosenLevel(progress)),
                                  () => void actions?.run());
  actions = buildActions(parts, exercise, progress, notes, python, editor, outputPanel(parts.output, exercise.filename, editor),
                         setUpGraph(root, exercise.graph, python, (line) => editor.markLine(line)));
  const { run, check } = actions;
  setUsable(parts.stop, false);
  parts.run.addEventListener("click", () => void run());
  parts.check.addEventListener("click", () => void check());
  parts.stop.addEventListener("click", () => python.stop("user"));
  const levels = levelSwitch(parts, exercise, progress, editor);
  parts.reset.addEventListener("click", () => confirmReset(editor, exercise, starterOf(exercise, levels.level())));
  return editor;
}
