// The course's end page: what the learner built. Their figures (from this browser's progress and
// what the server says each lesson holds), their microgpt.py assembled as My microgpt assembles
// it (and which lessons still give the reference), its last run of theirs from My microgpt beside
// the reference's curve (or the course's reference run, with where to train theirs), and the
// names it invented.
import { setUsable } from "./usable";
import { type CourseSummary, Progress } from "./progress";
import { type Assembled, downloadAssembled, renderAssembly } from "./mine/assembly-view";
import { Unreachable, assemblyRequest, fetchAssembly, leftOutNotes } from "./mine/assemble-request";
import { Trainer } from "./mine/trainer";
import { LossChart, Trend, emptyCurve, extend, type Curve } from "./mine/chart";
import { loadMyRun, type MyRun } from "./mine/my-runs";
import { type BlankData, setUpBlankPage } from "./end-blank";
import "./mine/my-microgpt.css";
import "./end-page.css";

interface ReferenceRun { script: string; steps: number; losses: Array<number | null>; samples: string[] }
interface PageData {
  assembleUrl: string; assemblerUrl: string; script: string; myMicrogptUrl: string; homeUrl: string; maxDraft: number;
  lessons: Record<string, { checks: number; written: number }>; complete: boolean;
  reference: ReferenceRun | null; blank: BlankData | null;
}

function json<T>(id: string): T {
  return JSON.parse(document.getElementById(id)!.textContent!) as T;
}

function $<T extends HTMLElement = HTMLElement>(selector: string): T {
  return document.querySelector<T>(selector)!;
}

const course = json<CourseSummary>("course-data");
const page = json<PageData>("end-data");
const progress = new Progress(course);
const number = (n: number): string => n.toLocaleString("en");

export interface Figures { done: number; lessons: number; lines: number; written: number; checks: number; allChecks: number }

/** The learner's figures: lessons done; lines of the program theirs; lines written and checks
 *  passed, counted over the lessons they finished (a lesson is done once all its checks pass). */
export function figures(): Figures {
  const numbers = Object.keys(course.lessons);
  const done = numbers.filter((n) => progress.lesson(n).status === "done");
  const sum = (list: string[], key: "checks" | "written") => list.reduce((total, n) => total + (page.lessons[n]?.[key] ?? 0), 0);
  return {
    done: done.length, lessons: numbers.length, lines: progress.linesLearned().size,
    written: sum(done, "written"), checks: sum(done, "checks"), allChecks: sum(numbers, "checks"),
  };
}

function showFigures(): void {
  const f = figures();
  $("[data-figure='lessons']").textContent = number(f.done);
  $("[data-figure='lines']").textContent = number(f.lines);
  $("[data-figure='written']").textContent = number(f.written);
  $("[data-figure='checks']").textContent = number(f.checks);
  $("[data-figure-of='checks']").textContent = `of the ${number(f.allChecks)} the lessons hold`;
  const finished = page.complete && f.done === f.lessons;
  $("[data-end-title]").textContent = finished ? `You built ${page.script.replace(/\.py$/, "")}` : "What you have built so far";
  const next = $("[data-end-next]");
  const first = Object.entries(course.lessons).find(([n]) => progress.lesson(n).status !== "done");
  next.hidden = finished;
  if (!finished) {
    next.replaceChildren(first
      ? `${number(f.lessons - f.done)} lesson${f.lessons - f.done === 1 ? "" : "s"} still to do. Next: `
      : "Every published lesson is done; the rest of the course is still being written. ");
    if (first) {
      const link = document.createElement("a");
      link.href = first[1].url;
      link.textContent = `${first[0]} ${first[1].title}`;
      next.append(link);
    }
  }
}

// --- the file ----------------------------------------------------------------------------------

const download = $<HTMLButtonElement>("[data-download]");
let assembled: Assembled | null = null;

/** Offline, the page's own Python assembles the file, from the course as My microgpt keeps it. */
async function assembledHere(text: string): Promise<Assembled> {
  const python = new Trainer($("[data-end]").dataset.trainWorkerUrl!, document.body.dataset.pyodideUrl!, () => undefined);
  await python.start();
  const lessons = (JSON.parse(text) as { lessons: Record<string, unknown> }).lessons;
  const answer = JSON.parse(await python.assemble(page.assemblerUrl, page.script, lessons)) as Assembled;
  for (const region of answer.regions) region.url = course.lessons[region.lesson]?.url ?? "";
  return answer;
}

async function showFile(): Promise<void> {
  const status = $("[data-end-file-status]");
  const { text, leftOut } = assemblyRequest(progress, course, page.script, page.maxDraft);
  let here = false;
  try {
    try {
      assembled = await fetchAssembly(page.assembleUrl, text);
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      status.textContent = `You are offline: assembling your ${page.script} in this browser…`;
      assembled = await assembledHere(text);
      here = true;
    }
  } catch (error) {
    status.textContent = `Your ${page.script} could not be assembled: ${(error as Error).message}`;
    return;
  }
  renderAssembly($("[data-mine-file]"), $("[data-mine-notes]"), assembled, course, leftOutNotes(leftOut));
  const reference = assembled.regions.filter((region) => region.origin === "reference");
  // In course order, the order a learner would go back to them in.
  const order = (number: string): number[] => number.split(".").map(Number);
  const lessons = [...new Map(reference.map((region) => [region.lesson, region])).values()]
    .sort((a, b) => order(a.lesson)[0] - order(b.lesson)[0] || order(a.lesson)[1] - order(b.lesson)[1]);
  status.textContent = lessons.length === 0
    ? `All of it is yours: every one of the ${assembled.total} regions the lessons teach holds your own passing code.`
    : `${assembled.yours} of its ${assembled.total} regions hold your code. The rest is still the reference, from ${lessons.length} lesson${lessons.length === 1 ? "" : "s"}: finish ${lessons.length === 1 ? "it" : "them"} to make it yours.`;
  if (here) status.textContent += " (Assembled in this browser: you are offline.)";
  const list = $("[data-end-reference]");
  list.replaceChildren(...lessons.map((region) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = region.url;
    link.textContent = `${region.lesson} ${region.title}`;
    item.append(link, region.reason ? `: ${region.reason}` : "");
    return item;
  }));
  list.hidden = lessons.length === 0;
  download.textContent = `Download ${assembled.filename}`;
  setUsable(download, true);
}

download.addEventListener("click", () => { if (assembled) downloadAssembled(assembled); });

// --- the run -------------------------------------------------------------------------------------

function curve(losses: Array<number | null>): Curve {
  const made = emptyCurve();
  extend(made, new Trend(), losses);
  return made;
}

function last(losses: Array<number | null>, count = 100): string {
  const tail = losses.slice(-count).filter((x): x is number => typeof x === "number");
  return tail.length ? (tail.reduce((a, b) => a + b, 0) / tail.length).toFixed(4) : "–";
}

function names(list: string[]): void {
  $("[data-end-names]").replaceChildren(...list.map((name) => {
    const item = document.createElement("li");
    item.textContent = name || "(an empty name)";
    return item;
  }));
}

function showRun(run: MyRun | null): void {
  const chart = new LossChart($("[data-chart]"));
  const words = $("[data-end-run]");
  const label = $("[data-chart-label]");
  const verdict = $("[data-end-verdict]");
  if (run) {
    const when = run.at ? new Date(run.at).toLocaleString("en", { dateStyle: "long", timeStyle: "short" }) : "";
    words.textContent = `Your ${run.script}, as you last trained it in My microgpt${when ? ` (${when})` : ""}: ` +
      `${number(run.steps)} steps on ${run.dataset}, in ${run.seconds.toFixed(0)} s. Mean loss of its last ` +
      `${Math.min(100, run.losses.length)} steps: ${last(run.losses)}.`;
    chart.show(curve(run.losses), curve(run.referenceLosses), run.steps);
    label.textContent = `Loss at each of ${run.losses.length} steps of your ${run.script}` +
      (run.referenceLosses.length ? `, beside ${run.referenceLosses.length} steps of the reference.` : ".");
    verdict.textContent = run.verdict;
    names(run.names);
    return;
  }
  $("[data-key='mine']").hidden = true;
  const reference = page.reference;
  const link = document.createElement("a");
  link.href = page.myMicrogptUrl;
  link.textContent = "My microgpt";
  words.replaceChildren(`You have not trained your ${page.script} in this browser yet. Train it in `, link,
    ` (all ${number(reference?.steps ?? 1000)} steps take a few minutes), and its curve and its names appear here.` +
    (reference ? " Meanwhile, this is the reference run, and the names it invented." : ""));
  if (reference) {
    chart.show(emptyCurve(), curve(reference.losses), reference.steps);
    label.textContent = `Loss at each of ${reference.losses.length} steps of the reference ${reference.script}; ` +
      `mean of the last 100: ${last(reference.losses)}.`;
    names(reference.samples);
    $("[data-names-title]").textContent = "The names the reference invented";
  }
}

showFigures();
progress.onChange(showFigures);
if (page.blank) {
  setUpBlankPage($("[data-blank]"), page.blank, $("[data-end]").dataset.trainWorkerUrl!, document.body.dataset.pyodideUrl!,
    document.body.dataset.datasetUrl!);
}
void showFile();
void loadMyRun(page.script).then(async (run) => showRun(run ?? await loadMyRun("train5.py")));
