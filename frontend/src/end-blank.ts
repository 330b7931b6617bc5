// The course's last recall, on the end page: the whole program written from a blank editor, run
// in this browser's Python until its first training steps are in, and judged by blank.py against
// the course's kept first steps, the very words `linebyline check microgpt` prints. The page
// never holds the program's text (a recall is not a copy away), only its kept numbers and where
// its regions are. The draft stays in this browser, so a reload or a closed tab loses nothing.
import { createEditor } from "./editor";
import { setUsable } from "./usable";
import { Trainer } from "./mine/trainer";
import type { Judged } from "./mine/protocol";

export interface BlankData {
  kept: string; regions: string; unlocks: string; steps: number; name: string; command: string;
}

const DRAFT_KEY = "linebyline:blank-page:";
const MAX_CHARS = 200_000; // as a lesson's editor (progress.ts MAX_DRAFT)

function draftOf(name: string): string {
  try {
    return localStorage.getItem(DRAFT_KEY + name) ?? "";
  } catch {
    return ""; // storage refused (a private window, say): the editor starts empty
  }
}

function keep(name: string, text: string): boolean {
  try {
    localStorage.setItem(DRAFT_KEY + name, text);
    return true;
  } catch {
    return false;
  }
}

export function setUpBlankPage(root: HTMLElement, data: BlankData, workerUrl: string, pyodideUrl: string, datasetUrl: string): void {
  const find = <T extends HTMLElement>(selector: string): T => root.querySelector<T>(selector)!;
  const run = find<HTMLButtonElement>("[data-blank-run]");
  const stop = find<HTMLButtonElement>("[data-blank-stop]");
  const status = find("[data-blank-status]");
  const verdict = find("[data-blank-verdict]");
  const saved = find("[data-blank-saved]");
  let python: Trainer | null = null;
  let names: Promise<string> | null = null;
  let running = false;
  let stopAsked = false; // Stop before Python has the program: it never starts

  const editor = createEditor(find("[data-blank-editor]"), {
    text: draftOf(data.name),
    label: `Your ${data.name}, from a blank page`,
    describedBy: "blank-how",
    maxLength: MAX_CHARS,
    onTooLong: (length) => { status.textContent = `That would make the file ${length.toLocaleString("en")} characters long; it holds at most ${MAX_CHARS.toLocaleString("en")}.`; },
    onChange: (text) => {
      saved.textContent = keep(data.name, text) ? "Kept in this browser." : "This browser refuses to keep it: copy it somewhere before you leave.";
    },
    onRun: () => run.click(),
  });

  function busy(now: boolean): void {
    running = now;
    setUsable(run, !now);
    stop.hidden = !now;
    root.dataset.state = now ? "running" : "idle";
  }

  async function judge(): Promise<void> {
    const source = editor.text();
    verdict.textContent = "";
    verdict.removeAttribute("data-passed");
    stopAsked = false;
    busy(true);
    try {
      status.textContent = "Starting Python…";
      if (!python) {
        python = new Trainer(workerUrl, pyodideUrl, (text, ready) => { if (running && !ready) status.textContent = text; });
        void python.start().catch(() => { python = null; }); // the next Run tries again
      }
      const worker = python;
      names ??= fetch(datasetUrl).then((response) => {
        if (!response.ok) throw new Error(`the names could not be loaded (${response.status})`);
        return response.text();
      });
      const dataset = await names.catch((error: Error) => { names = null; throw error; });
      await worker.whenReady();
      if (stopAsked) {
        status.textContent = "Stopped. Run it again when you are ready.";
        return;
      }
      status.textContent = `Running your ${data.name}…`;
      const judged: Judged | null = await worker.judge(
        { source, name: data.name, kept: data.kept, regions: data.regions, unlocks: data.unlocks, steps: data.steps, dataset },
        (step) => { status.textContent = `Step ${step} of ${data.steps}…`; },
      );
      if (judged === null) {
        status.textContent = "Stopped. Run it again when you are ready.";
        return;
      }
      status.textContent = judged.passed ? "Done: it passes." : "Done: not yet.";
      verdict.textContent = judged.text;
      verdict.dataset.passed = String(judged.passed);
    } catch (error) {
      status.textContent = `It could not be run: ${(error as Error).message}`;
    } finally {
      busy(false);
    }
  }

  run.addEventListener("click", () => { if (!running) void judge(); });
  stop.addEventListener("click", () => { stopAsked = true; python?.stopJudging(); });
  busy(false);
  find<HTMLElement>("[data-blank-command]").textContent = data.command;
  root.hidden = false;
}
