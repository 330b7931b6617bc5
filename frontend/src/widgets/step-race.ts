// Explore widget "step-race" (lesson 7.7): two course scripts train the same steps in the page's
// own Python, one after the other, and a step of each is timed here, in the learner's browser.
// Both print their losses, side by side; the lesson's compute says why the slow one is slow
// (how many Values one of its steps builds). The mistake toggle races the slow script without
// its `__slots__` line.

import { formatNumber, h, PrintedLines, pythonOfThePage, record, registerWidget, uniqueId, type Params } from "./kit";
import { mistakeToggle } from "./shared/controls";
import { StoppedError } from "../python";
import { plural } from "../words";
import "./step-race.css";

const STEP_LINE = /^step\s+(\d+) \/ (\d+) \| loss (\S+)$/;
const NUM_STEPS = /^num_steps = \d+$/m;
const SAMPLING = /^# --- sampling/m; // where the scripts' sampling starts: not raced
const SLOTS = /^ {4}__slots__ = .*\n/m;

interface Lap {
  script: string;
  losses: string[]; // as printed
  times: number[]; // performance.now() as each step line arrived
}

/** Milliseconds per step: the median time between two printed steps (steady against a pause of
 *  the browser in one of them). */
export function perStep(times: number[]): number | null {
  if (times.length < 2) return null;
  const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  const middle = Math.floor(gaps.length / 2);
  return gaps.length % 2 ? gaps[middle] : (gaps[middle - 1] + gaps[middle]) / 2;
}

interface Count { step: number; doc: string; positions: number; values: number; leaves: number; tuples: number }

function counts(value: unknown): Count[] {
  return Array.isArray(record(value).steps) ? (record(value).steps as Count[]) : [];
}

function grouped(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function mountStepRace(root: HTMLElement, params: Params): void {
  const fast = typeof params.fast === "string" ? params.fast : "";
  const slow = typeof params.slow === "string" ? params.slow : "";
  const fastUrl = typeof params.fastUrl === "string" ? params.fastUrl : "";
  const slowUrl = typeof params.slowUrl === "string" ? params.slowUrl : "";
  const choices = Array.isArray(params.steps)
    ? params.steps.filter((n): n is number => typeof n === "number" && Number.isInteger(n) && n >= 2) : [];
  const why = counts(params.data);
  if (!fastUrl || !slowUrl || choices.length === 0) {
    root.append(h("p", {}, "This widget has no scripts to race."));
    return;
  }

  const selectId = uniqueId("sr-steps");
  const select = h("select", { id: selectId },
    ...choices.map((n, i) => h("option", { value: n, selected: i === 0 }, plural(n, "step"))));
  const race = h("button", { type: "button", "data-action": "race" }, "Race");
  const stop = h("button", { type: "button", class: "secondary", "aria-disabled": "true" }, "Stop");
  const toggle = typeof params.mistake === "string" ? mistakeToggle(params.mistake, { name: "sr-mistake" }) : null;
  const status = h("p", { class: "sr-status", role: "status", "aria-live": "polite", "data-readout": "status" },
    `Press Race: ${fast}, then ${slow}, train the same steps here, in your browser.`);
  const fastTime = h("span", { class: "kit-number", "data-readout": "fast" }, "—");
  const slowTime = h("span", { class: "kit-number", "data-readout": "slow" }, "—");
  const slowName = h("dt", {}, `${slow}, per step`);
  const readout = h("dl", { class: "kit-readout sr-times" },
    h("div", {}, h("dt", {}, `${fast}, per step`), h("dd", {}, fastTime)),
    h("div", { class: "kit-mark" }, slowName, h("dd", {}, slowTime)));
  const verdict = h("p", { class: "kit-verdict", "data-readout": "verdict" });
  const body = h("tbody", {});
  const slowHead = h("th", { scope: "col" }, slow);
  const table = h("table", { class: "sr-losses", "data-losses": "", hidden: true },
    h("caption", {}, "The losses both printed"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "step"), h("th", { scope: "col" }, fast), slowHead)),
    body);
  const whyList = h("ul", { class: "sr-why", "data-why": "" }, ...why.slice(0, 3).map((row) => h("li", {},
    `Step ${row.step}, on ${JSON.stringify(row.doc)} (${row.positions} positions): the loss is built from `,
    h("strong", {}, grouped(row.values)), ` Values, ${grouped(row.leaves)} of them leaves (parameters and wrapped numbers), `
    + `holding ${grouped(row.tuples)} tuples of children and local grads. backward() visits every one.`)));
  root.append(h("div", { class: "sr" },
    h("div", { class: "kit-controls" }, h("label", { for: selectId }, "Race for "), select, race, stop),
    toggle ? h("div", { class: "sr-toggle" }, toggle.label) : null,
    status, readout, verdict, table,
    why.length ? h("h3", { class: "kit-title" }, `Why ${slow} is slow, counted by the lesson's code`) : null,
    whyList,
    typeof params.caption === "string" ? h("p", { class: "kit-caption" }, params.caption) : null));

  const sources = new Map<string, Promise<string>>();
  function source(url: string): Promise<string> {
    if (!sources.has(url)) {
      sources.set(url, fetch(url).then((response) => {
        if (!response.ok) throw new Error(`could not load the script (${response.status})`);
        return response.text();
      }));
    }
    return sources.get(url)!;
  }

  /** The script set to `total` steps, without its sampling (and, for the mistake, its slots). */
  function prepared(text: string, total: number, dropSlots: boolean): string {
    let cut = text.replace(NUM_STEPS, `num_steps = ${total}`);
    const sampling = SAMPLING.exec(cut);
    if (sampling) cut = cut.slice(0, sampling.index);
    if (dropSlots) cut = cut.replace(SLOTS, "");
    return cut;
  }

  let running = false;
  let lastWithSlots: number | null = null; // ms per step of the slow script, as it is

  async function lap(name: string, url: string, total: number, dropSlots: boolean): Promise<Lap> {
    const text = (await source(url));
    if (!NUM_STEPS.test(text)) throw new Error(`${name} has no \`num_steps = N\` line to change`);
    const python = await pythonOfThePage();
    if (python.busy) throw new Error("Python is busy with your code in Build: wait for it to finish, or press Stop there.");
    const result: Lap = { script: name, losses: [], times: [] };
    const printed = new PrintedLines((lines) => {
      for (const line of lines) {
        const step = STEP_LINE.exec(line);
        if (!step) continue;
        result.times.push(performance.now());
        result.losses.push(step[3]);
        status.textContent = `${name}: step ${result.losses.length} / ${total}…`;
      }
    });
    const outcome = await python.run(prepared(text, total, dropSlots), name, printed.take);
    if (outcome.status === "stopped") throw new StoppedError("stopped");
    if (outcome.status === "error") throw new Error(`${name} stopped with an error: ${printed.lastError()}`);
    return result;
  }

  function show(one: Lap, two: Lap, withoutSlots: boolean): void {
    const a = perStep(one.times);
    const b = perStep(two.times);
    fastTime.textContent = a === null ? "—" : `${formatNumber(a, 1)} ms`;
    slowTime.textContent = b === null ? "—" : `${formatNumber(b, 0)} ms`;
    // The shown times are rounded; the unrounded ones are what the ratio is made of.
    fastTime.dataset.ms = a === null ? "" : String(a);
    slowTime.dataset.ms = b === null ? "" : String(b);
    slowName.textContent = `${slow}${withoutSlots ? " without __slots__" : ""}, per step`;
    slowHead.textContent = withoutSlots ? `${slow} without __slots__` : slow;
    const same = one.losses.filter((loss, i) => loss === two.losses[i]).length;
    body.replaceChildren(...one.losses.map((loss, i) => h("tr", { class: loss === two.losses[i] ? "" : "sr-part" },
      h("th", { scope: "row" }, String(i + 1)), h("td", {}, loss), h("td", {}, two.losses[i] ?? "—"))));
    table.hidden = false;
    const ratio = a && b ? b / a : null;
    if (!withoutSlots) lastWithSlots = b;
    verdict.dataset.tone = same === one.losses.length ? "good" : "bad";
    verdict.dataset.ratio = ratio === null ? "" : String(ratio);
    const slots = withoutSlots && b !== null
      ? (lastWithSlots === null ? ` Race again without the mistake to see ${slow} with its __slots__.`
        : ` With its __slots__, your last race took ${formatNumber(lastWithSlots, 0)} ms per step of ${slow}.`)
      : "";
    verdict.textContent = `${same} of ${one.losses.length} losses print the same. `
      + (ratio === null ? "" : `In your browser, a step of ${slow}${withoutSlots ? " without __slots__" : ""} took `
        + `${formatNumber(ratio, 0)} times as long as a step of ${fast}.`) + slots;
  }

  race.addEventListener("click", async () => {
    if (running) return;
    running = true;
    const total = Number(select.value);
    const withoutSlots = Boolean(toggle?.input.checked);
    race.setAttribute("aria-disabled", "true");
    stop.removeAttribute("aria-disabled");
    verdict.textContent = "";
    try {
      const one = await lap(fast, fastUrl, total, false);
      const two = await lap(slow, slowUrl, total, withoutSlots);
      show(one, two, withoutSlots);
      status.textContent = `Done: ${plural(total, "step")} of each.`;
    } catch (error) {
      status.textContent = error instanceof StoppedError ? "Stopped." : (error as Error).message;
    } finally {
      running = false;
      race.removeAttribute("aria-disabled");
      stop.setAttribute("aria-disabled", "true");
    }
  });

  stop.addEventListener("click", async () => {
    if (!running) return;
    (await pythonOfThePage()).stop("user");
  });
}

registerWidget("step-race", mountStepRace);
