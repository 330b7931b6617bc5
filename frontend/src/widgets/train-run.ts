// Explore widget "train-run": train one of the course's scripts (microgpt.py, train0.py ...) in the
// page's own Python, on the names data, with a live loss chart, the speed, and the names it
// invents at the end. Optionally a second script runs first, and its losses are drawn beside.

import { setUsable } from "../usable";
import { say } from "../live";
import { formatNumber, h, PrintedLines, pythonOfThePage, registerWidget, svg, uniqueId, type Params } from "./kit";
import { StoppedError } from "../python";
import { plural } from "../words";
import "./train-run.css";

const STEP_LINE = /^step\s+(\d+) \/ (\d+) \| loss (\S+)$/;
const SAMPLE_LINE = /^sample\s+\d+: (.*)$/;
const NUM_STEPS = /^num_steps = \d+$/m;
// The training loop, as linebyline.mine.training.TRAINING_LOOP finds it (first_steps stops it early).
const TRAINING_LOOP = /^(for \w+ in range\()num_steps(\):)$/gm;
const TAIL = 100; // steps averaged for the comparison: single names are noisy

interface Series {
  script: string;
  losses: number[]; // losses[k - 1] is the loss printed at step k
  samples: string[];
  notes: string[]; // the other lines it printed (documents, vocab size, parameters ...)
  total: number;
}

function emptySeries(script: string, total: number): Series {
  return { script, losses: [], samples: [], notes: [], total };
}

/** The mean of the last `count` losses (all of them if fewer). */
function tailMean(losses: number[], count = TAIL): number {
  const tail = losses.slice(-count);
  return tail.reduce((sum, x) => sum + x, 0) / Math.max(1, tail.length);
}

/**
 * An exponential moving average, the trend through the noise of one name per step. It starts at
 * 0 and is divided by 1 − (1 − alpha)^k, so its first points are not dragged towards 0 (the same
 * bias correction Adam uses in module 10).
 */
function smooth(losses: number[], alpha = 0.05): number[] {
  const out: number[] = [];
  let level = 0;
  let weight = 0;
  for (const loss of losses) {
    level = alpha * loss + (1 - alpha) * level;
    weight = alpha + (1 - alpha) * weight;
    out.push(level / weight);
  }
  return out;
}

/**
 * The script cut to the first `steps` steps of its whole run: num_steps keeps its value (the
 * learning rate decays over all of it) and the training loop stops early, as
 * linebyline.mine.training.configure(first=steps) does.
 */
function firstStepsOf(script: string, name: string, steps: number): string {
  if ((script.match(TRAINING_LOOP) ?? []).length !== 1) {
    throw new Error(`${name} has no single \`for step in range(num_steps):\` loop to stop early`);
  }
  return script.replace(TRAINING_LOOP, (_, head: string, tail: string) => `${head}min(${steps}, num_steps)${tail}`);
}

function numberList(value: unknown): number[] {
  return Array.isArray(value)
    ? value.filter((x): x is number => typeof x === "number" && Number.isInteger(x) && x > 0) : [];
}

/** The chart in words, every series: its first and last loss, its lowest, where its trend ends. */
function describeChart(series: Series[], total: number): string {
  const parts = series.filter((s) => s.losses.length > 0).map((s) => {
    const steps = s.losses.length;
    const trend = smooth(s.losses);
    const lowest = Math.min(...s.losses);
    return `${s.script}: ${steps === total ? plural(total, "step") : `${steps} of ${total} steps`}, loss ${formatNumber(s.losses[0], 3)} at step 1 ` +
      `and ${formatNumber(s.losses[steps - 1], 3)} at step ${steps}, lowest ${formatNumber(lowest, 3)} ` +
      `(step ${s.losses.indexOf(lowest) + 1}), trend ${formatNumber(trend[0], 3)} at the start and ${formatNumber(trend[steps - 1], 3)} at the end`;
  });
  if (parts.length === 0) return "The loss chart: nothing trained yet.";
  return `The loss at every step. ${parts.join(". ")}. Every step's loss is in the table "The numbers" under the chart.`;
}

/** Every step's loss and trend, one row per step, one pair of columns per script. */
function numbersTable(series: Series[]): HTMLTableElement {
  const steps = Math.max(...series.map((s) => s.losses.length));
  const trends = series.map((s) => smooth(s.losses));
  const cell = (values: number[], step: number) => h("td", {}, step < values.length ? formatNumber(values[step], 4) : "");
  return h("table", { class: "tr-table" },
    h("caption", {}, "The loss at every step, and its trend"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "step"),
      ...series.flatMap((s) => [h("th", { scope: "col" }, `${s.script} loss`), h("th", { scope: "col" }, `${s.script} trend`)]))),
    h("tbody", {}, ...Array.from({ length: steps }, (_, step) => h("tr", {}, h("th", { scope: "row" }, String(step + 1)),
      ...series.flatMap((s, i) => [cell(s.losses, step), cell(trends[i], step)])))));
}

const W = 640;
const H = 240;
const PAD = { left: 44, right: 12, top: 12, bottom: 30 };

function makeChart(titleId: string) {
  const frame = svg("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom, class: "tr-frame" });
  const axes = svg("g", { class: "tr-axes" });
  const layers = svg("g");
  const element = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "tr-chart", role: "img", "aria-labelledby": titleId,
  }, frame, axes, layers);

  function draw(series: Series[], total: number): void {
    const all = series.flatMap((s) => s.losses).filter(Number.isFinite);
    axes.replaceChildren();
    layers.replaceChildren();
    if (all.length === 0) return;
    let low = Math.min(...all);
    let high = Math.max(...all);
    if (high - low < 0.5) { const mid = (high + low) / 2; low = mid - 0.25; high = mid + 0.25; }
    const x = (step: number) => PAD.left + ((step - 1) / Math.max(1, total - 1)) * (W - PAD.left - PAD.right);
    const y = (loss: number) => PAD.top + ((high - loss) / (high - low)) * (H - PAD.top - PAD.bottom);
    for (const tick of [low, (low + high) / 2, high]) {
      axes.append(svg("text", { x: PAD.left - 6, y: y(tick) + 4, class: "tr-tick", "text-anchor": "end" }, formatNumber(tick, 2)));
    }
    axes.append(svg("text", { x: PAD.left, y: H - 8, class: "tr-tick" }, "step 1"));
    axes.append(svg("text", { x: W - PAD.right, y: H - 8, class: "tr-tick", "text-anchor": "end" }, `step ${total}`));
    series.forEach((s, index) => {
      const kind = index === series.length - 1 ? "main" : "compare";
      // Every step as a dot (one path of zero-length strokes: cheap for thousands of points).
      let dots = "";
      s.losses.forEach((loss, i) => { if (Number.isFinite(loss)) dots += `M${x(i + 1).toFixed(1)} ${y(loss).toFixed(1)}h0`; });
      layers.append(svg("path", { d: dots, class: `tr-dots tr-${kind}` }));
      const trend = smooth(s.losses);
      const line = trend.map((loss, i) => `${i === 0 ? "M" : "L"}${x(i + 1).toFixed(1)} ${y(loss).toFixed(1)}`).join("");
      layers.append(svg("path", { d: line, class: `tr-trend tr-${kind}` }));
    });
  }

  return { element, draw };
}

function mountTrainRun(root: HTMLElement, params: Params): void {
  const script = typeof params.script === "string" ? params.script : "";
  const scriptUrl = typeof params.scriptUrl === "string" ? params.scriptUrl : "";
  const compare = typeof params.compare === "string" ? params.compare : "";
  const compareUrl = typeof params.compareUrl === "string" ? params.compareUrl : "";
  const choices = numberList(params.steps);
  const firstSteps = params.first_steps === true;
  if (!script || !scriptUrl || choices.length === 0) {
    root.append(h("p", {}, "This widget has no script to train."));
    return;
  }

  const selectId = uniqueId("tr-steps");
  const titleId = uniqueId("tr-title");
  const select = h("select", { id: selectId },
    ...choices.map((n, i) => h("option", { value: n, selected: i === 0 }, plural(n, "step"))));
  const train = h("button", { type: "button", class: "tr-train" }, "Train");
  const stop = h("button", { type: "button", class: "secondary" }, "Stop");
  setUsable(stop, false);
  const status = h("p", { class: "tr-status", "data-readout": "status" }, `Press Train to run ${script} in your browser.`);
  const announce = h("p", { class: "visually-hidden", role: "status", "aria-live": "polite" });
  const chart = makeChart(titleId);
  const title = h("p", { id: titleId, class: "visually-hidden" }, `Loss of ${script}: not trained yet.`);
  const legend = h("p", { class: "tr-legend" },
    h("span", { class: "tr-key tr-main", "aria-hidden": "true" }), ` ${script}`,
    compare ? h("span", { class: "tr-key tr-compare", "aria-hidden": "true" }) : null,
    compare ? ` ${compare}` : null);
  const notes = h("p", { class: "tr-notes", "data-readout": "notes" });
  const summary = h("p", { class: "tr-summary", "data-readout": "summary" });
  const numbersBox = h("div", { class: "tr-numbers-scroll", tabindex: 0, role: "region", "aria-label": "Every step's loss" });
  const numbers = h("details", { class: "tr-numbers", hidden: true }, h("summary", {}, "The numbers: every step's loss"), numbersBox);
  const namesTitle = h("h3", { class: "tr-names-title", hidden: true }, "Names it invented");
  const names = h("ol", { class: "tr-names", "data-readout": "names" });
  root.append(h("div", { class: "tr" },
    h("div", { class: "kit-controls" }, h("label", { for: selectId }, "Train for "), select, train, stop),
    status, announce,
    h("figure", { class: "tr-figure" }, chart.element, h("figcaption", {}, title,
      h("p", { class: "tr-title" }, "The loss at every step (dots) and its trend (line): lower is better."), legend)),
    numbers, notes, summary, namesTitle, names,
    typeof params.caption === "string" ? h("p", { class: "tr-caption" }, params.caption) : null));

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

  let drawn: Series[] = [];
  let frame = 0;
  function redraw(total: number): void {
    if (frame) return;
    frame = requestAnimationFrame(() => { frame = 0; chart.draw(drawn, total); });
  }

  /** Run one script for `total` steps; resolves with what it printed, parsed. */
  async function runScript(name: string, url: string, total: number, series: Series, label: string): Promise<void> {
    const text = firstSteps ? firstStepsOf(await source(url), name, total)
      : (await source(url)).replace(NUM_STEPS, `num_steps = ${total}`);
    if (!NUM_STEPS.test(text)) throw new Error(`${name} has no \`num_steps = N\` line to change`);
    const python = await pythonOfThePage();
    if (python.busy) throw new Error("Python is busy with your code in Build: wait for it to finish, or press Stop there.");
    const started = performance.now();
    const printed = new PrintedLines((lines) => {
      for (const line of lines) {
        const step = STEP_LINE.exec(line);
        const sample = SAMPLE_LINE.exec(line);
        if (step) series.losses.push(Number(step[3]));
        else if (sample) series.samples.push(sample[1]);
        else if (line.trim() && !line.startsWith("---")) series.notes.push(line.trim());
      }
      const done = series.losses.length;
      const seconds = (performance.now() - started) / 1000;
      const rate = done / Math.max(seconds, 1e-3);
      status.textContent = done < total
        ? `${label}: step ${done} / ${total} · ${formatNumber(rate, 1)} steps/s · about ${Math.ceil((total - done) / Math.max(rate, 1e-3))} s left`
        : `${label}: ${plural(total, "step")} in ${formatNumber(seconds, 1)} s · sampling names…`;
      redraw(total);
    });
    const result = await python.run(text, name, printed.take, { what: "the training", where: "in Explore" });
    if (result.status === "stopped") throw new StoppedError("stopped");
    if (result.status === "error") {
      throw new Error(`${name} stopped with an error: ${printed.lastError()}`);
    }
  }

  train.addEventListener("click", async () => {
    const total = Number(select.value);
    const main = emptySeries(script, total);
    const reference = compare ? emptySeries(compare, total) : null;
    drawn = reference ? [reference, main] : [main];
    names.replaceChildren();
    namesTitle.hidden = true;
    numbers.hidden = true;
    numbersBox.replaceChildren();
    summary.textContent = "";
    notes.textContent = "";
    setUsable(train, false);
    select.disabled = true;
    setUsable(stop, true);
    say(announce, `Training ${script} for ${plural(total, "step")}.`);
    chart.draw(drawn, total);
    try {
      // Both scripts first: then the second run follows the first at once, and Build, which
      // waits a moment for a widget's next job, sees Python busy with the training throughout.
      const [text] = await Promise.all([source(scriptUrl), reference ? source(compareUrl) : null]);
      const whole = NUM_STEPS.exec(text)?.[0].split(" = ")[1] ?? "";
      if (reference) await runScript(compare, compareUrl, total, reference, `${compare} (for reference)`);
      await runScript(script, scriptUrl, total, main, script);
      notes.textContent = main.notes.join(" · ");
      const mean = tailMean(main.losses);
      const tail = Math.min(TAIL, main.losses.length);
      summary.textContent = reference
        ? `Mean loss over the last ${tail} steps: ${script} ${formatNumber(mean, 3)}, ${compare} ${formatNumber(tailMean(reference.losses), 3)}.`
        : `Loss from ${formatNumber(main.losses[0], 3)} at step 1 to a mean of ${formatNumber(mean, 3)} over the last ${tail} steps.`;
      for (const name of main.samples) names.append(h("li", {}, name || "(an empty name)"));
      namesTitle.hidden = main.samples.length === 0;
      status.textContent = firstSteps && whole
        ? `Done: the first ${total} of the ${Number(whole).toLocaleString("en")} steps of ${script}.`
        : `Done: ${plural(total, "step")} of ${script}.`;
      say(announce, `Training finished. ${summary.textContent} ${main.samples.length} names invented.`);
    } catch (error) {
      const stopped = error instanceof StoppedError;
      status.textContent = stopped
        ? `Stopped at step ${drawn[drawn.length - 1].losses.length} of ${total}.`
        : (error as Error).message;
      say(announce, status.textContent);
    } finally {
      setUsable(train, true);
      select.disabled = false;
      setUsable(stop, false);
      chart.draw(drawn, total);
      title.textContent = describeChart(drawn, total);
      const trained = drawn.filter((s) => s.losses.length > 0);
      if (trained.length > 0) numbersBox.replaceChildren(numbersTable(trained));
      numbers.hidden = trained.length === 0;
    }
  });

  stop.addEventListener("click", async () => {
    const python = await pythonOfThePage();
    python.stop("user");
  });
}

registerWidget("train-run", mountTrainRun);
