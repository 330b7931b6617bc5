// Explore widget "name-surprise" (lessons 2.3, 2.5): type a name and see, for each pair of
// neighbouring tokens, the probability the table gives it, its surprise −log p, and the loss,
// the mean surprise. The table comes from the lesson's own code (explore.compute); the surprises
// and the mean are worked out here from what the learner types. A mistake picker swaps in the
// classic wrong versions of the loss; `compare` shows a second name beside the first.

import { say } from "../live";
import { formatNumber, h, record, registerWidget, textList, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup } from "./shared/controls";
import "./name-surprise.css";

type Mistake = "none" | "no-minus" | "sum" | "no-end" | "log-count";

interface Data {
  labels: string[];
  probs: number[][];
  counts: number[][];
  blockSize: number;
  references: { label: string; value: number }[];
}

interface Pair {
  a: number;
  b: number;
  p: number;
  count: number;
  /** What this version of the loss adds up for the pair (−log p when nothing is wrong). */
  value: number;
  scored: boolean;
}

interface Score {
  pairs: Pair[];
  n: number;
  loss: number;
  /** The loss as it should be, whatever the mistake. */
  right: number;
  unknown: string[];
}

const MISTAKE_LABELS: Record<Exclude<Mistake, "none">, string> = {
  "no-minus": "log p without the minus",
  sum: "the sum instead of the mean",
  "no-end": "forget the end pair (last letter, BOS)",
  "log-count": "log of the count, not the probability",
};

function square(value: unknown, size: number): number[][] | null {
  if (!Array.isArray(value) || value.length !== size) return null;
  for (const row of value) {
    if (!Array.isArray(row) || row.length !== size) return null;
    if (!row.every((x) => typeof x === "number" && x > 0)) return null;
  }
  return value as number[][];
}

function parseData(raw: unknown): Data | null {
  const fields = record(raw);
  const labels = textList(fields.labels);
  if (!labels || labels.length < 2) return null;
  const probs = square(fields.probs, labels.length);
  const counts = square(fields.counts, labels.length);
  const blockSize = typeof fields.block_size === "number" ? fields.block_size : 0;
  if (!probs || !counts || blockSize < 1) return null;
  const references = (Array.isArray(fields.references) ? fields.references : [])
    .map(record)
    .filter((r) => typeof r.label === "string" && typeof r.value === "number")
    .map((r) => ({ label: r.label as string, value: r.value as number }));
  return { labels, probs, counts, blockSize, references };
}

function formatProb(p: number): string {
  if (p >= 0.001) return formatNumber(p, 4);
  return Number(p.toPrecision(2)).toString();
}

function tokenName(label: string): string {
  return label === "BOS" ? "BOS" : label;
}

function score(data: Data, name: string, mistake: Mistake): Score {
  const bos = data.labels.length - 1;
  const ids: number[] = [];
  const unknown: string[] = [];
  for (const ch of name) {
    const id = data.labels.indexOf(ch);
    if (id < 0 || id === bos) {
      if (!unknown.includes(ch)) unknown.push(ch);
    } else {
      ids.push(id);
    }
  }
  const tokens = [bos, ...ids, bos];
  const all = Math.min(data.blockSize, tokens.length - 1);
  const n = mistake === "no-end" ? Math.min(data.blockSize, tokens.length - 2) : all;
  const pairs: Pair[] = [];
  for (let pos = 0; pos < tokens.length - 1; pos += 1) {
    const [a, b] = [tokens[pos], tokens[pos + 1]];
    const p = data.probs[a][b];
    const count = data.counts[a][b];
    const value = mistake === "no-minus" ? Math.log(p) : mistake === "log-count" ? -Math.log(count) : -Math.log(p);
    pairs.push({ a, b, p, count, value, scored: pos < n });
  }
  const scored = pairs.filter((pair) => pair.scored);
  const total = scored.reduce((s, pair) => s + pair.value, 0);
  const loss = n === 0 ? Number.NaN : mistake === "sum" ? total : total / n;
  const right = pairs.slice(0, all).reduce((s, pair) => s - Math.log(pair.p), 0) / all;
  return { pairs, n, loss, right, unknown };
}

/** The most repeated pair of a name, if any pair comes more than once. */
function repeated(pairs: Pair[]): { pair: Pair; times: number } | null {
  let best: { pair: Pair; times: number } | null = null;
  for (const pair of pairs) {
    const times = pairs.filter((other) => other.a === pair.a && other.b === pair.b).length;
    if (times > 1 && (!best || times > best.times)) best = { pair, times };
  }
  return best;
}

function mountNameSurprise(root: HTMLElement, params: Params): void {
  const parsed = parseData(params.data);
  if (!parsed) {
    root.append(h("p", {}, "The table's numbers are missing: the lesson's compute did not run."));
    return;
  }
  const data: Data = parsed;
  const examples = (Array.isArray(params.examples) ? params.examples : []).filter((x): x is string => typeof x === "string");
  const mistakes = (Array.isArray(params.mistakes) ? params.mistakes : [])
    .filter((x): x is Exclude<Mistake, "none"> => typeof x === "string" && x in MISTAKE_LABELS);
  const compareMode = typeof params.compare === "string";
  let mistake: Mistake = "none";

  const widget = h("div", { class: "ns" });
  root.append(widget);

  if (mistakes.length) {
    const kinds: Mistake[] = ["none", ...mistakes];
    widget.append(choiceGroup({
      legend: "Try the mistake", name: "ns-mistake",
      choices: kinds.map((kind) => ({
        label: [kind === "none" ? "the right loss: mean of −log p" : MISTAKE_LABELS[kind]], mistake: kind !== "none", value: kind,
      })),
      onPick: (index) => {
        mistake = kinds[index];
        renderAll();
      },
    }));
  }

  const panels = h("div", { class: `ns-panels${compareMode ? " ns-two" : ""}` });
  widget.append(panels);
  const renderers: (() => void)[] = [];

  function makePanel(start: string, which: string): void {
    const inputId = uniqueId("ns-name");
    const input = h("input", {
      type: "text", id: inputId, value: start, autocomplete: "off", autocapitalize: "none",
      spellcheck: "false", maxlength: 30, "data-control": `name-${which}`, class: "kit-input",
    });
    const chips = h("div", { class: "ns-examples" });
    if (examples.length) {
      chips.append(h("span", { class: "ns-examples-label" }, "Try:"));
      for (const example of examples) {
        const chip = h("button", { type: "button", class: "ns-chip" }, example);
        chip.addEventListener("click", () => { input.value = example; render(); });
        chips.append(chip);
      }
    }
    const captionText = h("caption", { class: "visually-hidden" });
    const tbody = h("tbody", {});
    const table = h("table", { class: "ns-pairs" }, captionText,
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "pair"),
        h("th", { scope: "col", class: "ns-num" }, "p"),
        h("th", { scope: "col", class: "ns-num", "data-head": "value" }, "−log p"),
        h("th", { scope: "col", class: "ns-bar-col" }, h("span", { class: "visually-hidden" }, "bar")))),
      tbody);
    const lossOut = h("p", { class: "kit-verdict ns-loss", "data-readout": `loss-${which}`, "aria-live": "polite" });
    const note = h("p", { class: "ns-note", "data-readout": `note-${which}` });
    const panel = h("section", { class: "ns-panel", "data-panel": which },
      h("div", { class: "ns-name-row" }, h("label", { for: inputId }, compareMode ? `Name ${which}` : "Name"), input),
      chips, table, lossOut, note);
    panels.append(panel);
    input.addEventListener("input", render);

    function render(): void {
      const name = input.value.trim().toLowerCase();
      const result = score(data, name, mistake);
      const head = table.querySelector('[data-head="value"]') as HTMLElement;
      head.textContent = mistake === "no-minus" ? "log p" : mistake === "log-count" ? "−log count" : "−log p";
      captionText.textContent = `The pairs of "${name}", with the probability the table gives each and its surprise.`;
      const biggest = Math.max(8, ...result.pairs.map((pair) => Math.abs(pair.value)));
      tbody.replaceChildren(...result.pairs.map((pair, pos) => h("tr", { class: pair.scored ? "" : "ns-unscored", "data-pos": pos },
        h("th", { scope: "row" }, `${tokenName(data.labels[pair.a])} → ${tokenName(data.labels[pair.b])}`),
        h("td", { class: "ns-num", "data-p": String(pair.p) }, mistake === "log-count" ? `count ${pair.count}` : formatProb(pair.p)),
        h("td", { class: "ns-num", "data-value": String(pair.value) }, pair.scored ? formatNumber(pair.value, 4) : "not scored"),
        h("td", { class: "ns-bar-col", "aria-hidden": "true" },
          h("span", { class: `ns-bar${pair.value < 0 ? " ns-negative" : ""}`,
            style: `width: ${pair.scored ? ((100 * Math.abs(pair.value)) / biggest).toFixed(1) : 0}%` })))));

      const scored = result.pairs.filter((pair) => pair.scored);
      const terms = scored.map((pair) => formatNumber(pair.value, 2).replace(/^−/, "(−") + (pair.value < 0 ? ")" : ""));
      const shownTerms = terms.length > 6 ? `${terms.slice(0, 3).join(" + ")} + … + ${terms[terms.length - 1]}` : terms.join(" + ");
      const formula = mistake === "sum" ? `${shownTerms}` : `(${shownTerms}) / ${result.n}`;
      say(lossOut, `loss = ${formula} = ${formatNumber(result.loss, 4)}`);
      lossOut.dataset.value = String(result.loss);
      lossOut.dataset.tone = mistake === "none" ? "good" : "bad";

      const notes: string[] = [];
      if (result.unknown.length) {
        notes.push(`Left out: ${result.unknown.map((ch) => `"${ch}"`).join(", ")}, not in the vocabulary (only ${data.labels.slice(0, -1)[0]}…${data.labels[data.labels.length - 2]}).`);
      }
      const right = formatNumber(result.right, 4);
      if (mistake === "no-minus") {
        notes.push(`log p is negative for every p below 1, so this "loss" is ${formatNumber(result.loss, 4)}, and making it smaller would push the probabilities of real names down. With the minus it is ${right}.`);
      } else if (mistake === "sum") {
        notes.push(`A sum grows with every pair, so a long name scores worse just for being long. The mean of the ${result.n} surprises is ${right}.`);
      } else if (mistake === "no-end") {
        notes.push(`The last pair, ${tokenName(data.labels[result.pairs[result.pairs.length - 1].a])} → BOS, is not scored: the model is never asked to end the name. With it, the loss is ${right}.`);
      } else if (mistake === "log-count") {
        notes.push(`A count is 1 or more, so −log(count) is 0 or below, and the commonest pairs get the lowest numbers. A count is not a chance: the right loss, from probabilities, is ${right}.`);
      }
      if (result.pairs.length - 1 >= data.blockSize && !result.pairs[result.pairs.length - 1].scored && mistake !== "no-end") {
        notes.push(`Only the first ${data.blockSize} pairs (block_size) are scored.`);
      }
      const again = compareMode && mistake === "none" ? repeated(result.pairs.filter((pair) => pair.scored)) : null;
      if (again) {
        notes.push(`${tokenName(data.labels[again.pair.a])} → ${tokenName(data.labels[again.pair.b])} comes ${again.times} times, with the same probability (${formatProb(again.pair.p)}) every time: the table sees only the current token, never what came before it.`);
      }
      note.textContent = notes.join(" ");
      note.hidden = notes.length === 0;
      note.dataset.tone = mistake === "none" ? "plain" : "bad";
    }
    renderers.push(render);
  }

  makePanel(typeof params.start === "string" ? params.start : "emma", "A");
  if (compareMode) makePanel(params.compare as string, "B");

  if (data.references.length) {
    widget.append(h("ul", { class: "ns-refs", "aria-label": "Losses to compare with" },
      ...data.references.map((ref) => h("li", { "data-reference": ref.label },
        `${ref.label}: `, h("strong", {}, formatNumber(ref.value, 4))))));
  }
  const caption = textOr(params.caption, null);
  if (caption) widget.append(h("p", { class: "kit-caption" }, caption));

  function renderAll(): void {
    for (const render of renderers) render();
  }
  renderAll();
}

registerWidget("name-surprise", mountNameSurprise);
