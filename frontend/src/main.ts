// Every page's script: progress in this browser, and on a lesson page the five parts coming alive.
import { confirmAccount, confirmWhenOnline, showKnownAccount } from "./account";
import { setUpBuild } from "./build-part";
import type { ExerciseData } from "./exercise";
import { watchAccountDeletion } from "./deleted-account";
import { DeviceNotes } from "./device-notes";
import { chosenLevel, type Level } from "./levels";
import { setUpListing } from "./listing";
import { say } from "./live";
import { sendPendingEvents } from "./events";
import { setUpFeedback } from "./feedback";
import { setUpOffline } from "./offline";
import { type CourseSummary, deviceId, Progress } from "./progress";
import { Python } from "./python";
import { setUpQuiz, shuffleChoices } from "./quiz";
import { setUpStuck } from "./stuck";
import { providePython } from "./widgets/kit";
import "./site.css";

const STATUS_TEXT = { "not-started": "Not started", "in-progress": "In progress", done: "Done" };

function json<T>(id: string): T | null {
  const element = document.getElementById(id);
  return element?.textContent ? (JSON.parse(element.textContent) as T) : null;
}

/** The first lesson not done yet, in the course's order (none when every lesson is done). */
function nextLesson(progress: Progress, course: CourseSummary): [string, CourseSummary["lessons"][string]] | undefined {
  return Object.entries(course.lessons).find(([n]) => progress.lesson(n).status !== "done");
}

/** /next/, where the installed app opens: on to the learner's next lesson, or the course home. */
function openNextLesson(progress: Progress, course: CourseSummary): void {
  if (!document.querySelector("[data-open-next]")) return;
  location.replace(nextLesson(progress, course)?.[1].url ?? "/");
}

/** Everything on the page that reflects progress: statuses, counts, highlighted lines. */
function showProgress(progress: Progress, course: CourseSummary): void {
  const learned = progress.linesLearned();
  document.querySelectorAll("[data-lines-learned]").forEach((el) => { el.textContent = String(learned.size); });
  document.querySelectorAll<HTMLElement>("[data-status-of]").forEach((el) => {
    const status = progress.lesson(el.dataset.statusOf!).status;
    el.textContent = STATUS_TEXT[status];
    el.dataset.status = status;
  });
  document.querySelectorAll<HTMLElement>("[data-module-progress]").forEach((el) => {
    const lessons = course.modules[el.dataset.moduleProgress!] ?? [];
    const done = lessons.filter((n) => progress.lesson(n).status === "done").length;
    el.textContent = `${done} / ${lessons.length} lessons done`;
  });
  // Three highlights: on a lesson page, this lesson / learned earlier / not yet; on the program
  // page, learned / in progress (a lesson begun but not done) / not yet.
  document.querySelectorAll<HTMLElement>("[data-program] li[data-line]").forEach((li) => {
    if (li.classList.contains("this") || li.classList.contains("blank")) return;
    const isLearned = learned.has(Number(li.dataset.line));
    const teacher = li.dataset.teacher;
    const started = !isLearned && !!teacher && progress.lesson(teacher).status === "in-progress";
    li.classList.toggle("earlier", isLearned);
    li.classList.toggle("started", started);
    li.classList.toggle("later", !isLearned && !started);
  });
  const nextUp = document.querySelector<HTMLElement>("[data-next-up]");
  const complete = document.querySelector<HTMLElement>("[data-course-complete]");
  if (complete) {
    // Complete once every lesson is done and the course has no lesson still to come.
    const allDone = Object.keys(course.lessons).every((n) => progress.lesson(n).status === "done");
    complete.hidden = !(allDone && complete.hasAttribute("data-all-published"));
  }
  if (nextUp) {
    const next = nextLesson(progress, course);
    nextUp.hidden = !next;
    if (next) {
      nextUp.replaceChildren("Next available lesson: ");
      const link = document.createElement("a");
      link.href = next[1].url;
      link.textContent = `${next[0]} ${next[1].title}`;
      nextUp.append(link);
    }
  }
}

function download(name: string, text: string): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** At the top of every page: progress that could not be read (with a way to download it) and
 *  progress that could not be saved. Hidden when there is neither. */
let shownProblems = "";

function showProgressProblems(progress: Progress): void {
  const signature = JSON.stringify([progress.setAside.length, progress.setAsideKept, progress.notSaved]);
  if (signature === shownProblems) return; // unchanged: an alert is not announced again
  shownProblems = signature;
  let box = document.querySelector<HTMLElement>("[data-progress-alert]");
  if (!box) {
    box = document.createElement("div");
    box.className = "progress-alert";
    box.dataset.progressAlert = "";
    box.setAttribute("role", "alert");
    document.querySelector("main")?.prepend(box);
  }
  box.replaceChildren();
  const aside = progress.setAside;
  if (aside.length) {
    const what = aside.map((p) => `${p.lesson ? `lesson ${p.lesson}, ${p.part}` : p.part}: ${p.reason}`);
    const text = document.createElement("p");
    text.dataset.setAside = "";
    text.textContent = `Part of your saved progress could not be read, so it was set aside and everything else was loaded (${what.join("; ")}). ` +
      (progress.setAsideKept ? "It is kept in this browser until you delete it." : "There was no room to keep it in this browser: download it before you close this page.");
    const buttons = document.createElement("p");
    buttons.className = "buttons";
    const save = document.createElement("button");
    save.type = "button";
    save.textContent = "Download what was set aside";
    save.addEventListener("click", () => download(`linebyline-set-aside-${progress.course.slug}.json`, progress.setAsideText()));
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "secondary";
    drop.textContent = "Delete it";
    drop.addEventListener("click", () => {
      if (window.confirm("Delete what was set aside? Download it first if you may want it.")) progress.discardSetAside();
    });
    buttons.append(save, drop);
    box.append(text, buttons);
  }
  const notSaved = progress.notSaved;
  if (notSaved) {
    const text = document.createElement("p");
    text.dataset.notSaved = "";
    text.textContent = `Your latest progress could not be saved: ${notSaved}. It is kept while this page stays open; ` +
      "export your progress from the course home to keep a copy" + (aside.length ? ", or delete what was set aside to make room." : ".");
    box.append(text);
  }
  box.hidden = !box.childElementCount;
}

function setUpProgressTools(progress: Progress): void {
  const message = document.querySelector<HTMLElement>("[data-progress-message]");
  document.querySelector("[data-progress-export]")?.addEventListener("click", () => {
    download(`linebyline-progress-${progress.course.slug}.json`, progress.exportText());
    if (message) message.textContent = "Progress exported.";
  });
  document.querySelector<HTMLInputElement>("[data-progress-import]")?.addEventListener("change", async (event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file || !message) return;
    try {
      const { imported, leftOut } = progress.importText(await file.text());
      message.textContent = `Imported progress for ${imported} lesson${imported === 1 ? "" : "s"}. ` +
        (leftOut.length ? `Left out what could not be read: ${leftOut.join("; ")}. ` : "") +
        "Nothing you had here was lost.";
    } catch (error) {
      message.textContent = (error as Error).message;
    }
    input.value = "";
  });
}

/** The course home's choice of TODO comments for every Build: guided, or on my own. Kept in the
 *  progress (synced when signed in); a lesson's Build toolbar can switch it for that lesson. */
function setUpLevelSetting(progress: Progress): void {
  const box = document.querySelector<HTMLElement>("[data-level-setting]");
  if (!box) return;
  const radios = [...box.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
  const status = box.querySelector<HTMLElement>("[data-level-message]");
  const show = () => { const level = chosenLevel(progress); for (const radio of radios) radio.checked = radio.value === level; };
  show();
  progress.onChange(show); // chosen on another device or tab
  for (const radio of radios) {
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      const level: Level = radio.value === "own" ? "own" : "guided";
      progress.choose("todoLevel", level);
      if (status) say(status, `Saved: Builds you have not started open with ${level === "own" ? "on-my-own" : "guided"} TODO comments.`);
    });
  }
}

function setUpLesson(progress: Progress, notes: DeviceNotes): void {
  const exercise = json<ExerciseData>("exercise-data");
  const build = document.getElementById("build");
  if (!exercise || !build) return;
  const body = document.body.dataset;
  const python = new Python({
    worker: body.workerUrl!, pyodide: body.pyodideUrl!, runtime: exercise.runtimeUrl, dataset: body.datasetUrl!,
  }, (state, text) => {
    const status = document.querySelector<HTMLElement>("[data-python-status]")!;
    say(status, text);
    status.dataset.state = state;
  });
  python.start(); // in the background, while the learner reads
  providePython(python);
  const editor = setUpBuild(build, exercise, progress, python, notes);
  setUpStuck(build, exercise, progress, editor);
}

/** Scroll a lesson's program listing (not the page) to the first line this lesson teaches. */
function showThisLessonsLines(): void {
  const frame = document.querySelector<HTMLElement>("#unlocked .program-frame");
  const first = frame?.querySelector<HTMLElement>("li.this");
  if (frame && first) frame.scrollTop = Math.max(0, first.offsetTop - frame.offsetTop - 24);
}

/** Sync for a signed-in learner (the code for it is fetched only then), once per page. */
let syncing = false;

function syncIfSignedIn(progress: Progress): void {
  if (syncing || !document.body.dataset.progressApi) return;
  syncing = true;
  void import("./sync").then(({ setUpSync }) => setUpSync(progress));
}

/** Who is signed in: the account this browser knows at once, then the server's word on it. */
function setUpAccount(progress: Progress): void {
  const known = showKnownAccount();
  const confirmed = (changed: boolean) => {
    if (changed) shuffleChoices(document.body.dataset.learnerSeed || deviceId());
    syncIfSignedIn(progress);
  };
  // Offline (or the server unreachable), the account this browser knows syncs once it is back.
  if (known?.signedIn && !navigator.onLine) syncIfSignedIn(progress);
  void confirmAccount().then(({ changed }) => {
    watchAccountDeletion(progress); // after the server said who is signed in now
    confirmed(changed);
  });
  confirmWhenOnline((_, changed) => confirmed(changed));
}

function main(): void {
  const course = json<CourseSummary>("course-data");
  const progress = course ? new Progress(course) : null;
  if (progress) setUpAccount(progress);
  // First, before anything else can let the page paint: the choices in this learner's order.
  shuffleChoices(document.body.dataset.learnerSeed || deviceId());
  if (!course || !progress) return;
  openNextLesson(progress, course);
  setUpOffline();
  showProgress(progress, course);
  showProgressProblems(progress);
  progress.onChange(() => { showProgress(progress, course); showProgressProblems(progress); });
  setUpProgressTools(progress);
  setUpLevelSetting(progress);
  sendPendingEvents(course.slug);
  showThisLessonsLines();
  document.querySelectorAll<HTMLElement>("[data-program]").forEach(setUpListing);
  const notes = new DeviceNotes(progress.notesKey);
  setUpLesson(progress, notes);
  const quiz = json<Parameters<typeof setUpQuiz>[0]>("quiz-data");
  if (quiz) setUpQuiz(quiz, (id) => id.split("-q")[0], progress, notes);
  const feedback = document.querySelector<HTMLFormElement>("form[data-feedback]");
  if (feedback) setUpFeedback(feedback);
}

main();
