// The My microgpt page: the learner's own version of a course script, assembled on the server
// from their passing lesson code (sent from this browser's progress), or offline by the same
// assemble.py in this page's training Python; shown region by region, downloaded, and trained
// here beside the reference run.
import { setUsable } from "./usable";
import { plural } from "./words";
import { Python } from "./python";
import { type CourseSummary, Progress } from "./progress";
import { type Assembled, downloadAssembled, renderAssembly } from "./mine/assembly-view";
import { Unreachable, assemblyRequest, fetchAssembly, leftOutNotes } from "./mine/assemble-request";
import { LossChart, Trend, emptyCurve, extend, type Curve } from "./mine/chart";
import { compare } from "./mine/compare";
import { readDataset } from "./mine/dataset";
import { loadReference, saveReference, referenceKey, type StoredRun } from "./mine/reference-store";
import { Trainer, type TrainResult } from "./mine/trainer";
import { saveMyRun } from "./mine/my-runs";
import type { Batch } from "./mine/protocol";
import "./mine/my-microgpt.css";

interface PageData {
  assembleUrl: string; assemblerUrl: string; scripts: Array<{ name: string; about: string; url: string }>;
  maxDraft: number; runtimeUrl: string; recheck: Record<string, { checksUrl: string; filename: string }>;
}


function json<T>(id: string): T {
  return JSON.parse(document.getElementById(id)!.textContent!) as T;
}

function $<T extends HTMLElement = HTMLElement>(root: ParentNode, selector: string): T {
  return root.querySelector<T>(selector)!;
}

const root = $(document, "[data-mine]");
const course = json<CourseSummary>("course-data");
const page = json<PageData>("mine-data");
const progress = new Progress(course);
const body = document.body.dataset;

// --- assembling ------------------------------------------------------------------------------

const choice = $<HTMLSelectElement>(root, "[data-script-choice]");
const status = $(root, "[data-mine-status]");
const download = $<HTMLButtonElement>(root, "[data-download]");
let assembled: Assembled | null = null;
// Lessons done whose progress keeps no code that passed (saved before it was kept apart from the
// draft): their draft checked again here, true when it passed (then kept as the code that passed).
const recheck = new Map<string, boolean>();
let asking = 0;

/** Check again, here, the drafts of lessons done whose progress keeps no code that passed (it was
 *  saved before that was kept apart): a draft that passes becomes the code that passed; one that
 *  does not is named as failing now. Python starts only when there is such a lesson. */
let rechecking: Promise<void> | null = null;
function recheckUnkept(): Promise<void> {
  rechecking ??= recheckNow();
  return rechecking;
}

async function recheckNow(): Promise<void> {
  const waiting = Object.keys(course.lessons).filter((number) => {
    const lesson = progress.lesson(number);
    return lesson.status === "done" && lesson.passedCode === undefined && typeof lesson.draft === "string"
      && !recheck.has(number) && number in page.recheck;
  });
  if (!waiting.length) return;
  status.textContent = `Checking your code for lesson${waiting.length > 1 ? "s" : ""} ${waiting.join(", ")} again (saved before the code that passed was kept apart)…`;
  const python = new Python({ worker: body.workerUrl!, pyodide: body.pyodideUrl!, runtime: page.runtimeUrl, dataset: body.datasetUrl! }, () => undefined);
  python.start();
  for (const number of waiting) {
    const draft = progress.lesson(number).draft!;
    try {
      const response = await fetch(page.recheck[number].checksUrl);
      if (!response.ok) continue; // not judged: said as "not kept", tried again next time
      const { checks, reference } = await response.json() as { checks: string; reference: string };
      const result = await python.check({ lesson: number, source: draft, checks, reference, starter: "", filename: page.recheck[number].filename, timeout: 10 });
      recheck.set(number, result.status === "pass");
      if (result.status === "pass") progress.update(number, (lesson) => { lesson.passedCode = draft; });
    } catch {
      // Python could not judge it: the reference is used, and the reason says the code is not kept.
    }
  }
}

/** Offline: the same assembly, made by assemble.py in this page's training Python. */
async function assembledHere(script: string, lessons: Record<string, unknown>): Promise<Assembled> {
  const answer = JSON.parse(await mine.assemble(page.assemblerUrl, script, lessons)) as Assembled;
  for (const region of answer.regions) region.url = course.lessons[region.lesson]?.url ?? "";
  return answer;
}

async function assemble(): Promise<void> {
  const script = choice.value;
  const ticket = ++asking;
  await recheckUnkept();
  if (ticket !== asking) return;
  status.textContent = `Assembling your ${script}…`;
  setUsable(download, false);
  setUsable(trainButton, false);
  const { text, leftOut } = assemblyRequest(progress, course, script, page.maxDraft, recheck);
  let answer: Assembled;
  let here = false;
  try {
    try {
      answer = await fetchAssembly(page.assembleUrl, text);
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      status.textContent = `You are offline: assembling your ${script} in this browser…`;
      answer = await assembledHere(script, (JSON.parse(text) as { lessons: Record<string, unknown> }).lessons);
      here = true;
    }
  } catch (error) {
    if (ticket === asking) status.textContent = `Your ${script} could not be assembled: ${(error as Error).message}`;
    return;
  }
  if (ticket !== asking) return; // another script was chosen meanwhile
  assembled = answer;
  renderAssembly($(root, "[data-mine-file]"), $(root, "[data-mine-notes]"), answer, course, leftOutNotes(leftOut));
  status.textContent = `${answer.yours} of ${answer.total} regions of ${answer.script} are yours.` +
    (here ? " (Assembled in this browser: you are offline.)" : "");
  download.textContent = `Download ${answer.filename}`;
  setUsable(download, true);
  setTrainingScript(answer);
}

download.addEventListener("click", () => { if (assembled) downloadAssembled(assembled); });
choice.addEventListener("change", () => void assemble());
progress.onChange(() => { if (!running) void assemble(); });

// --- training --------------------------------------------------------------------------------

const train = $(root, "[data-train]");
const trainButton = $<HTMLButtonElement>(train, "[data-action='train']");
const pauseButton = $<HTMLButtonElement>(train, "[data-action='pause']");
const stopButton = $<HTMLButtonElement>(train, "[data-action='stop']");
const sampleButton = $<HTMLButtonElement>(train, "[data-action='sample']");
const stepsInput = $<HTMLInputElement>(train, "[data-steps]");
const temperatureInput = $<HTMLInputElement>(train, "[data-temperature]");
const temperatureNote = $(train, "[data-temperature-note]");
const datasetNote = $(train, "[data-dataset-note]");
const fileInput = $<HTMLInputElement>(train, "[data-dataset-file]");
const ownChoice = $<HTMLInputElement>(train, "input[name='dataset'][value='own']");
const namesChoice = $<HTMLInputElement>(train, "input[name='dataset'][value='names']");
const progressLine = $(train, "[data-readout='progress']");
const announce = $(train, "[data-readout='announce']");
const verdictLine = $(train, "[data-readout='verdict']");
const printedLine = $(train, "[data-readout='printed']");
const errorBox = $(train, "[data-readout='error']");
const namesTitle = $(train, "[data-names-title]");
const namesList = $(train, "[data-readout='names']");
const nowTitle = $(train, "[data-now-title]");
const nowList = $(train, "[data-readout='now']");
const chart = new LossChart($(train, "[data-chart]"));
const chartLabel = $(train, "[data-chart-label]");

let pythonReady = false;
const mine = new Trainer(root.dataset.trainWorkerUrl!, body.pyodideUrl!, (text, ready) => {
  pythonReady = ready;
  const state = $(root, "[data-python-status]");
  state.textContent = text;
  state.dataset.state = ready ? "ready" : "loading";
  updateButtons();
});
void mine.start();
let referenceWorker: Trainer | null = null;
let referenceReady: Promise<void> = Promise.resolve();
let running = false;
let paused = false;
let ownDataset: { name: string; text: string } | null = null;
let namesText: Promise<string> | null = null;

function setTrainingScript(answer: Assembled): void {
  const noTemperature = answer.script === "train0.py";
  temperatureInput.disabled = noTemperature || running;
  temperatureNote.hidden = !noTemperature;
  updateButtons();
}

function updateButtons(): void {
  // aria-disabled, not disabled: the button pressed keeps the keyboard focus (usable.ts).
  setUsable(trainButton, !running && pythonReady && !!assembled);
  setUsable(pauseButton, running);
  setUsable(stopButton, running);
  setUsable(sampleButton, running && assembled?.script !== undefined);
  pauseButton.textContent = paused ? "Resume" : "Pause";
  for (const input of [stepsInput, fileInput, ownChoice, namesChoice, choice]) input.disabled = running;
  temperatureInput.disabled = running || assembled?.script === "train0.py";
}

async function chosenDataset(): Promise<{ name: string; text: string }> {
  if (ownChoice.checked) {
    if (!ownDataset) throw new Error("Choose a text file first (or drop one here), or train on the bundled names.");
    return ownDataset;
  }
  namesText ??= fetch(body.datasetUrl!).then((r) => {
    if (!r.ok) throw new Error(`the names could not be loaded (${r.status})`);
    return r.text();
  });
  return { name: "the bundled names", text: await namesText };
}

async function takeFile(file: File): Promise<void> {
  try {
    const { text, documents } = await readDataset(file);
    ownDataset = { name: file.name, text };
    ownChoice.checked = true;
    datasetNote.textContent = `${file.name}: ${plural(documents, "document", documents.toLocaleString("en"))}, one per line.`;
    datasetNote.dataset.state = "ok";
  } catch (error) {
    ownDataset = null;
    namesChoice.checked = true;
    datasetNote.textContent = (error as Error).message;
    datasetNote.dataset.state = "bad";
  }
}

fileInput.addEventListener("change", () => { if (fileInput.files?.[0]) void takeFile(fileInput.files[0]); });
const dropZone = $(train, "[data-dataset]");
dropZone.addEventListener("dragover", (event) => { event.preventDefault(); dropZone.classList.add("dropping"); });
dropZone.addEventListener("dragleave", () => dropZone.classList.remove("dropping"));
dropZone.addEventListener("drop", (event) => {
  event.preventDefault();
  dropZone.classList.remove("dropping");
  const file = event.dataTransfer?.files[0];
  if (file && !running) void takeFile(file);
});

function readSteps(): number {
  const steps = Number(stepsInput.value);
  if (!Number.isInteger(steps) || steps < 1 || steps > 100_000) throw new Error("Steps must be a whole number from 1 to 100,000.");
  return steps;
}

function readTemperature(): number | null {
  if (assembled?.script === "train0.py") return null;
  const t = Number(temperatureInput.value);
  if (!Number.isFinite(t) || t < 0.01 || t > 10) throw new Error("The temperature must be a number from 0.01 to 10.");
  return t;
}

interface Side { curve: Curve; trend: Trend; marks: string[]; done: boolean; weights: Float64Array | null }

function newSide(): Side {
  return { curve: emptyCurve(), trend: new Trend(), marks: [], done: false, weights: null };
}

function describeRate(done: number, total: number, seconds: number): string {
  const rate = done / Math.max(seconds, 1e-3);
  const left = Math.ceil((total - done) / Math.max(rate, 1e-6));
  return `Step ${done} / ${total} · ${rate.toFixed(1)} steps/s · ${done < total ? `about ${left} s left` : "done"}`;
}

function whereInFile(error: string, answer: Assembled): string {
  const match = [...error.matchAll(new RegExp(`File "${answer.filename.replace(/\./g, "\\.")}", line (\\d+)`, "g"))].pop();
  if (!match) return "";
  const line = Number(match[1]);
  const region = answer.regions.find((r) => r.first <= line && line <= r.last);
  if (!region) return ` Line ${line} of ${answer.filename} is reference code that no lesson has taught yet.`;
  return region.origin === "yours"
    ? ` Line ${line} is your code from lesson ${region.lesson} (${region.title}).`
    : ` Line ${line} is the reference for lesson ${region.lesson} (${region.title}).`;
}

async function startTraining(): Promise<void> {
  if (!assembled || running) return;
  const answer = assembled;
  let steps: number;
  let temperature: number | null;
  let dataset: { name: string; text: string };
  try {
    steps = readSteps();
    temperature = readTemperature();
    dataset = await chosenDataset();
  } catch (error) {
    progressLine.textContent = (error as Error).message;
    return;
  }
  running = true;
  paused = false;
  updateButtons();
  errorBox.hidden = true;
  namesTitle.hidden = true;
  namesList.replaceChildren();
  nowTitle.hidden = true;
  nowList.replaceChildren();
  printedLine.textContent = "";
  verdictLine.textContent = "";
  const me = newSide();
  const ref = newSide();
  const invented: string[] = [];
  const bundledNames = !ownChoice.checked;
  const referenceSource = await (await fetch(page.scripts.find((s) => s.name === answer.script)!.url)).text();
  const key = await referenceKey(referenceSource, steps, dataset.text, body.pyodideUrl!);
  const stored = await loadReference(key);
  if (stored) {
    extend(ref.curve, ref.trend, stored.losses);
    ref.marks = stored.marks;
    ref.weights = Float64Array.from(stored.weights);
    ref.done = true;
  }
  const started = performance.now();
  let pausedFor = 0;
  let pausedAt = 0;
  const redraw = () => {
    chart.show(me.curve, ref.curve, steps);
    const verdict = compare(me.curve.losses, ref.curve.losses, me.marks, ref.marks,
                            me.done ? me.weights : null, ref.done ? ref.weights : null);
    verdictLine.textContent = verdict.kind === "nothing" ? "" : verdict.text;
    verdictLine.dataset.kind = verdict.kind;
    const last = me.curve.losses.length;
    chartLabel.textContent = `Loss at ${last === 1 ? "the one step" : `each of ${last} steps`} of your ${answer.script}` +
      (ref.curve.losses.length ? `, beside ${plural(ref.curve.losses.length, "step")} of the reference.` : ".") +
      (verdict.kind === "nothing" ? "" : ` ${verdict.text}`);
  };
  let trainingSeconds = 0;
  const onBatch = (side: Side) => (batch: Batch) => {
    extend(side.curve, side.trend, batch.losses);
    side.marks.push(...batch.marks);
    if (side === me) {
      const seconds = (performance.now() - started - pausedFor) / 1000;
      if (batch.steps.length) trainingSeconds = seconds;
      progressLine.textContent = describeRate(me.curve.losses.length, steps, seconds);
      const shown = batch.lines.filter((line) => !/^(sample\s+\d+:|--- samples ---)/.test(line));
      if (shown.length) printedLine.textContent = [printedLine.textContent, ...shown].filter(Boolean).join(" · ");
      for (const line of batch.lines) {
        const found = /^sample\s+\d+: (.*)$/.exec(line);
        if (found) { invented.push(found[1]); namesList.append(listItem(found[1])); namesTitle.hidden = false; }
      }
    }
    redraw();
  };
  announce.textContent = `Training your ${answer.script} for ${plural(steps, "step")} on ${dataset.name}.`;
  redraw();
  const job = { source: answer.text, filename: answer.filename, steps, temperature, dataset: dataset.text };
  let referenceRun: Promise<TrainResult | null> = Promise.resolve(null);
  let cancelled = false;
  if (!stored) {
    if (!referenceWorker) {
      referenceWorker = new Trainer(root.dataset.trainWorkerUrl!, body.pyodideUrl!, () => undefined);
      referenceReady = referenceWorker.start();
    }
    const worker = referenceWorker;
    referenceRun = referenceReady.then(() => cancelled ? null : worker.train(
      { ...job, source: referenceSource, filename: answer.script }, { batch: onBatch(ref) })).catch(() => null);
  }
  activeWorkers = stored ? [mine] : [mine, referenceWorker!];
  sampleTemperature = () => readTemperature() ?? 1;
  pauseClock = (on: boolean) => {
    if (on) pausedAt = performance.now();
    else if (pausedAt) { pausedFor += performance.now() - pausedAt; pausedAt = 0; }
  };
  let result: TrainResult;
  try {
    result = await mine.train(job, {
      batch: onBatch(me),
      samples: (names, error, step) => {
        nowTitle.hidden = false;
        nowTitle.textContent = `Sampled now, at step ${step}, with the weights as they were then`;
        nowList.replaceChildren(...(error ? [listItem(`(sampling failed: ${error})`)] : names.map(listItem)));
      },
    });
  } catch (error) {
    result = { status: "error", error: (error as Error).message, weights: new Float64Array(), seconds: 0 };
  }
  me.weights = result.weights;
  me.done = result.status === "finished";
  if (result.status === "error") {
    errorBox.hidden = false;
    errorBox.textContent = result.error;
    progressLine.textContent = `Your ${answer.script} stopped with an error.${whereInFile(result.error, answer)}`;
    cancelled = true;
    referenceWorker?.stop();
  } else if (result.status === "stopped") {
    progressLine.textContent = `Stopped at step ${me.curve.losses.length} of ${steps}.`;
    cancelled = true;
    referenceWorker?.stop();
  } else {
    progressLine.textContent = `Done: ${plural(steps, "step")} in ${trainingSeconds.toFixed(1)} s (${(steps / Math.max(trainingSeconds, 1e-3)).toFixed(1)} steps/s).`;
    if (!ref.done && !stored) verdictLine.textContent = "Waiting for the reference run to catch up…";
  }
  const reference = await referenceRun;
  if (reference?.status === "finished") {
    ref.done = true;
    ref.weights = reference.weights;
    await saveReference(key, { losses: ref.curve.losses, marks: ref.marks, weights: Array.from(reference.weights) } satisfies StoredRun);
  }
  redraw();
  if (result.status === "finished") {
    // Kept for the course's end page and lesson 11.2, which show the learner's own run.
    await saveMyRun({
      script: answer.script, steps, bundledNames, dataset: dataset.name,
      losses: me.curve.losses, referenceLosses: ref.done ? ref.curve.losses : [],
      verdict: verdictLine.textContent ?? "", weights: Array.from(me.weights), names: invented,
      temperature, seconds: trainingSeconds, at: Date.now(),
    });
  }
  running = false;
  paused = false;
  activeWorkers = [];
  updateButtons();
  announce.textContent = `${progressLine.textContent} ${verdictLine.textContent}`;
}

function listItem(text: string): HTMLLIElement {
  const li = document.createElement("li");
  li.textContent = text || "(an empty name)";
  return li;
}

let activeWorkers: Trainer[] = [];
let sampleTemperature = (): number => 0.5;
let pauseClock = (_on: boolean): void => undefined;

trainButton.addEventListener("click", () => void startTraining());
pauseButton.addEventListener("click", () => {
  paused = !paused;
  for (const worker of activeWorkers) if (paused) worker.pause(); else worker.resume();
  pauseClock(paused);
  if (paused) progressLine.textContent = `Paused at step ${progressLine.textContent?.match(/Step (\d+)/)?.[1] ?? "?"}. ${progressLine.textContent}`;
  announce.textContent = paused ? "Paused." : "Resumed.";
  updateButtons();
});
stopButton.addEventListener("click", () => {
  for (const worker of activeWorkers) worker.stop();
  if (paused) { paused = false; pauseClock(false); }
});
sampleButton.addEventListener("click", () => {
  try {
    mine.sampleNow(sampleTemperature());
  } catch (error) {
    progressLine.textContent = (error as Error).message;
  }
});

updateButtons(); // guards the buttons (aria-disabled in the page) from the start
void assemble();
