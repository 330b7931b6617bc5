// Explore widget "script-diff" (lesson 7.1): one course script becomes the next. The lines the
// second deletes (−) and adds (+), worked out here from the two files, beside the losses both
// print for their first steps (computed by the lesson's own code): the same to the last digit.
// The "try the mistake" toggle swaps in the second script's losses with a mistake made.

import { h, record, registerWidget, type Params } from "./kit";
import { choiceGroup, mistakeToggle } from "./shared/controls";
import "./script-diff.css";

type Op = { kind: "same" | "gone" | "new"; text: string; left: number; right: number };

/** The line diff of a and b: the longest common run of lines kept, the rest deleted or added. */
export function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const keep: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      keep[i][j] = a[i] === b[j] ? keep[i + 1][j + 1] + 1 : Math.max(keep[i + 1][j], keep[i][j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    // Where both ways keep as many lines, the deletion goes first: a change reads old, then new.
    if (i < n && j < m && a[i] === b[j]) { ops.push({ kind: "same", text: a[i], left: i + 1, right: j + 1 }); i += 1; j += 1; }
    else if (i < n && (j === m || keep[i + 1][j] >= keep[i][j + 1])) { ops.push({ kind: "gone", text: a[i], left: i + 1, right: 0 }); i += 1; }
    else { ops.push({ kind: "new", text: b[j], left: 0, right: j + 1 }); j += 1; }
  }
  return ops;
}

const CONTEXT = 2; // unchanged lines shown around each change

function lines(text: string): string[] {
  const all = text.replace(/\r\n/g, "\n").split("\n");
  if (all.length && all[all.length - 1] === "") all.pop();
  return all;
}

function counted(ops: Op[], kind: Op["kind"]): number {
  return ops.filter((op) => op.kind === kind && op.text.trim() !== "").length;
}

/** A loss as the scripts print it, and how far apart two are, exactly. */
function printed(loss: number): string {
  return loss.toFixed(4);
}

function gap(a: number, b: number): string {
  const d = Math.abs(a - b);
  if (d === 0) return "0";
  return d.toExponential(1).replace("-", "−");
}

function numberRows(value: unknown): [number, number, number][] {
  if (!Array.isArray(value)) return [];
  return value.filter((row): row is [number, number, number] => Array.isArray(row) && row.length === 3
    && row.every((x) => typeof x === "number" && Number.isFinite(x)));
}

function mountScriptDiff(root: HTMLElement, params: Params): void {
  const leftName = typeof params.left === "string" ? params.left : "";
  const rightName = typeof params.right === "string" ? params.right : "";
  const leftUrl = typeof params.leftUrl === "string" ? params.leftUrl : "";
  const rightUrl = typeof params.rightUrl === "string" ? params.rightUrl : "";
  const data = record(params.data);
  const steps = numberRows(data.steps);
  const mistake = Array.isArray(data.mistake) && data.mistake.length === steps.length
    ? (data.mistake as number[]) : null;
  const mistakeNote = typeof data.mistake_note === "string" ? data.mistake_note : "";
  if (!leftUrl || !rightUrl || steps.length === 0) {
    root.append(h("p", {}, "This widget has no scripts to compare."));
    return;
  }

  const summary = h("p", { class: "kit-callout", "data-readout": "diff" }, `Reading ${leftName} and ${rightName}…`);
  const listing = h("div", { class: "sd-listing", role: "region", tabindex: 0,
    "aria-label": `The lines ${rightName} deletes from ${leftName} (marked −) and adds (marked +)` });
  let whole = false;
  let ops: Op[] = [];
  const view = choiceGroup({
    legend: "Show", name: "sd-view", groupClass: "kit-picker sd-view",
    choices: [{ label: ["the changes"] }, { label: ["the whole file"] }],
    onPick: (index) => { whole = index === 1; drawListing(); },
  });

  const toggle = typeof params.mistake === "string" && mistake ? mistakeToggle(params.mistake, { name: "sd-mistake" }) : null;
  const body = h("tbody", {});
  const rightHead = h("th", { scope: "col" }, rightName);
  const table = h("table", { class: "sd-losses", "data-losses": "" },
    h("caption", {}, "The loss each script prints, step by step"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "step"), h("th", { scope: "col" }, leftName),
      rightHead, h("th", { scope: "col" }, "difference"))),
    body);
  const verdict = h("p", { class: "kit-verdict", role: "status", "aria-live": "polite", "data-readout": "verdict" });

  root.append(h("div", { class: "sd" },
    summary, view, listing,
    h("h3", { class: "kit-title" }, "Same numbers?"),
    toggle ? h("div", { class: "sd-toggle" }, toggle.label) : null,
    table, verdict,
    typeof params.caption === "string" ? h("p", { class: "kit-caption" }, params.caption) : null));

  function drawListing(): void {
    const show = new Set<number>();
    ops.forEach((op, index) => {
      if (whole || op.kind !== "same") {
        for (let k = Math.max(0, index - (whole ? 0 : CONTEXT)); k <= Math.min(ops.length - 1, index + (whole ? 0 : CONTEXT)); k += 1) show.add(k);
      }
    });
    const rows: HTMLElement[] = [];
    let hidden = 0;
    const flush = (): void => {
      if (hidden) rows.push(h("div", { class: "sd-line sd-fold" }, `⋯ ${hidden} line${hidden === 1 ? "" : "s"} the same in both ⋯`));
      hidden = 0;
    };
    ops.forEach((op, index) => {
      if (!show.has(index)) { hidden += 1; return; }
      flush();
      const mark = op.kind === "gone" ? "−" : op.kind === "new" ? "+" : " ";
      const where = op.kind === "gone" ? `${leftName} line ${op.left}` : op.kind === "new" ? `${rightName} line ${op.right}` : `line ${op.left} / ${op.right}`;
      rows.push(h("div", { class: `sd-line sd-${op.kind}`, "data-kind": op.kind, title: where },
        h("span", { class: "sd-mark", "aria-hidden": "true" }, mark),
        h("span", { class: "visually-hidden" }, op.kind === "gone" ? "deleted: " : op.kind === "new" ? "added: " : ""),
        h("code", {}, op.text || " ")));
    });
    flush();
    listing.replaceChildren(...rows);
  }

  function drawLosses(): void {
    const withMistake = Boolean(toggle?.input.checked && mistake);
    rightHead.textContent = withMistake ? `${rightName}, the mistake made` : rightName;
    let parted = 0;
    let worst = 0;
    body.replaceChildren(...steps.map(([step, left, right], index) => {
      const shown = withMistake ? (mistake as number[])[index] : right;
      const same = printed(left) === printed(shown);
      if (!same && !parted) parted = step;
      worst = Math.max(worst, Math.abs(left - shown));
      return h("tr", { class: same ? "" : "sd-part", "data-step": step, "data-left": String(left), "data-right": String(shown) },
        h("th", { scope: "row" }, String(step)), h("td", {}, printed(left)), h("td", {}, printed(shown)),
        h("td", {}, gap(left, shown)));
    }));
    if (withMistake) {
      verdict.dataset.tone = "bad";
      verdict.textContent = `${mistakeNote} ${parted ? `The printed losses part from step ${parted}.` : ""}`.trim();
    } else {
      verdict.dataset.tone = parted ? "bad" : "good";
      verdict.textContent = parted
        ? `The printed losses part from step ${parted}.`
        : `All ${steps.length} printed losses are the same. `
          + (worst === 0 ? "The exact losses are identical too."
            : `The exact losses differ by at most ${gap(worst, 0)}: rounding, in the last digits a float holds.`);
    }
  }

  toggle?.input.addEventListener("change", drawLosses);
  drawLosses();

  Promise.all([leftUrl, rightUrl].map((url) => fetch(url).then((response) => {
    if (!response.ok) throw new Error(`could not load ${url} (${response.status})`);
    return response.text();
  }))).then(([left, right]) => {
    const a = lines(left);
    const b = lines(right);
    ops = diffLines(a, b);
    const gone = counted(ops, "gone");
    const added = counted(ops, "new");
    summary.dataset.gone = String(gone);
    summary.dataset.added = String(added);
    summary.dataset.goneAll = String(ops.filter((op) => op.kind === "gone").length);
    summary.dataset.addedAll = String(ops.filter((op) => op.kind === "new").length);
    summary.textContent = `${rightName} deletes ${gone} lines of ${leftName} and adds ${added} (blank lines not counted); `
      + `${counted(ops, "same")} lines stay as they were.`;
    drawListing();
  }).catch((error: Error) => {
    summary.textContent = `The scripts could not be compared: ${error.message}.`;
    summary.dataset.tone = "bad";
  });
}

registerWidget("script-diff", mountScriptDiff);
