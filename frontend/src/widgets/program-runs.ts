// Explore widget "program-runs" (lessons 1.2, 1.3, 1.4): a few lines of Python in several
// versions — the right one and classic mistakes — and what each printed when it was run in a
// fresh Python. The lesson's compute ran every version (so the code shown is the code that ran);
// this widget lets the learner pick a version, run it again, and see what changed.

import { setUsable } from "../usable";
import { say } from "../live";
import { h, record, registerWidget, textList, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeBadge } from "./shared/controls";
import "./program-runs.css";

interface Run {
  out: string[];
  error: string | null;
}

interface Variant {
  label: string;
  code: string;
  mistake: boolean;
  note: string;
  runs: Run[];
}

function parseRun(value: unknown): Run | null {
  const fields = record(value);
  const out = textList(fields.out);
  if (!out) return null;
  return { out, error: textOr(fields.error, null) };
}

function parseVariants(data: unknown): Variant[] {
  const list = record(data).variants;
  const variants: Variant[] = [];
  for (const item of Array.isArray(list) ? list : []) {
    const fields = record(item);
    if (typeof fields.label !== "string" || typeof fields.code !== "string") continue;
    const runs = (Array.isArray(fields.runs) ? fields.runs : []).map(parseRun)
      .filter((run): run is Run => run !== null);
    if (runs.length === 0) continue;
    variants.push({
      label: fields.label,
      code: fields.code.replace(/\n+$/, ""),
      mistake: fields.mistake === true,
      note: typeof fields.note === "string" ? fields.note : "",
      runs,
    });
  }
  return variants;
}

/** Every line a run shows, the error last. */
function linesOf(run: Run): string[] {
  return run.error === null ? run.out : [...run.out, run.error];
}

/** How many lines of `run` differ from `first` (position by position; extra lines count). */
function differences(first: Run, run: Run): number {
  const a = linesOf(first);
  const b = linesOf(run);
  let count = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) if (a[i] !== b[i]) count += 1;
  return count;
}

function mountProgramRuns(root: HTMLElement, params: Params): void {
  const variants = parseVariants(params.data);
  if (variants.length === 0) {
    root.append(h("p", {}, "This widget has nothing to show: its runs were not computed."));
    return;
  }
  const reference = variants.find((variant) => !variant.mistake) ?? variants[0];
  const referenceLines = new Set(reference.code.split("\n"));
  let chosen = 0;
  let shown = 1; // how many of the chosen version's runs are on screen

  const picker = choiceGroup({
    legend: "Which version runs", name: "pr-version",
    choices: variants.map((variant) => ({
      label: [variant.mistake ? mistakeBadge() : null, h("code", {}, variant.label)], mistake: variant.mistake,
    })),
    onPick: (index) => {
      chosen = index;
      shown = 1;
      render();
    },
  });

  const codeTitleId = uniqueId("pr-code-title");
  const code = h("pre", { class: "kit-lines pr-code", "aria-labelledby": codeTitleId, "data-code": "" });
  const again = h("button", { type: "button", "data-action": "run-again" }, "Run it again ▶");
  const reset = h("button", { type: "button", class: "secondary" }, "Start over");
  const counter = h("span", { class: "kit-counter", "data-run-counter": "" });
  const controls = h("div", { class: "kit-controls pr-controls" }, again, reset, counter);
  const runs = h("div", { class: "pr-runs" });
  const verdict = h("p", { class: "kit-callout", "aria-live": "polite", "data-verdict": "" });
  const note = h("p", { class: "pr-note", "data-note": "" });
  const captionText = textOr(params.caption, null);
  const caption = captionText ? h("p", { class: "kit-caption" }, captionText) : null;

  root.append(h("div", { class: "pr" },
    picker,
    h("p", { class: "pr-code-title", id: codeTitleId }, "The code this version runs (a fresh Python each run):"),
    code,
    controls,
    runs,
    verdict,
    note,
    caption));

  again.addEventListener("click", () => {
    if (shown < variants[chosen].runs.length) {
      shown += 1;
      render();
      runs.lastElementChild?.scrollIntoView({ block: "nearest" });
    }
  });
  reset.addEventListener("click", () => {
    shown = 1;
    render();
  });

  function renderCode(variant: Variant): void {
    code.dataset.source = variant.code;
    code.replaceChildren(...variant.code.split("\n").map((line) => {
      const changed = variant !== reference && !referenceLines.has(line);
      return h("span", { class: `kit-line pr-line${changed ? " kit-line-marked pr-changed" : ""}` },
        line || " ",
        changed ? h("span", { class: "visually-hidden" }, " (changed)") : null);
    }));
  }

  function renderRun(variant: Variant, index: number): HTMLElement {
    const run = variant.runs[index];
    const first = variant.runs[0];
    const firstLines = linesOf(first);
    const differ = index > 0 ? differences(first, run) : 0;
    const heading = variant.runs.length === 1 ? "It printed"
      : index === 0 ? `Run ${index + 1} printed`
      : differ === 0 ? `Run ${index + 1}: the same as run 1`
        : `Run ${index + 1}: different from run 1`;
    const lines = run.out.map((line, at) => {
      const changed = index > 0 && firstLines[at] !== line;
      return h("span", { class: `kit-line pr-line${changed ? " pr-differs" : ""}`, "data-line": String(at), "data-text": line },
        line || " ",
        changed ? h("span", { class: "visually-hidden" }, " (differs from run 1)") : null);
    });
    if (run.error !== null) {
      lines.push(h("span", { class: "kit-line pr-line pr-error", "data-line": "error", "data-text": run.error }, run.error));
    }
    return h("section", { class: `pr-run${differ ? " pr-run-differs" : ""}`, "data-run": String(index + 1) },
      h("h4", { class: "pr-run-title" }, heading),
      h("pre", { class: "kit-lines" }, ...lines));
  }

  function describe(variant: Variant): string {
    const total = variant.runs.length;
    const crashed = variant.runs[0].error !== null ? "It stopped with an error (the last line, in red)." : "";
    if (total === 1) return crashed;
    if (shown === 1) {
      return ["Run 1 is on screen.", crashed, "Press “Run it again” to start a fresh Python and compare."]
        .filter(Boolean).join(" ");
    }
    const changed = variant.runs.slice(1, shown).filter((run) => differences(variant.runs[0], run) > 0).length;
    if (changed === 0) return `All ${shown} runs printed exactly the same lines.`;
    return `${changed} of the ${shown - 1} later run${shown - 1 === 1 ? "" : "s"} printed something other than run 1.`;
  }

  function render(): void {
    const variant = variants[chosen];
    renderCode(variant);
    runs.replaceChildren(...variant.runs.slice(0, shown).map((_, index) => renderRun(variant, index)));
    const total = variant.runs.length;
    controls.hidden = total === 1;
    counter.textContent = `run ${shown} of ${total}`;
    setUsable(again, shown < total);
    again.textContent = shown >= total ? `All ${total} runs shown` : "Run it again ▶";
    say(verdict, describe(variant));
    verdict.hidden = !verdict.textContent;
    // The note says what the runs show: it comes once there is more than one run to compare.
    note.textContent = variant.note;
    note.hidden = !variant.note || (total > 1 && shown === 1);
    note.classList.toggle("pr-note-mistake", variant.mistake);
  }

  render();
}

registerWidget("program-runs", mountProgramRuns);
