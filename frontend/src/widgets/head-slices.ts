// Explore widget "head-slices" (lesson 9.1): one query q cut into n_head slices of head_dim
// numbers, and what each head makes of its slice. The lesson's code computes q and the keys of
// one position as gpt() made them (`data`); the learner picks how many heads share the n_embd
// numbers, and everything else is worked out here, as gpt() would: head_dim = n_embd // n_head,
// lo, hi = h * head_dim, (h + 1) * head_dim, the scores q[lo:hi]·k[lo:hi] / sqrt(head_dim), and
// each head's softmax. The mistake toggle steps the slices by n_head instead of head_dim, which
// changes nothing with 4 heads of 4 and a lot with any other number of heads.

import { say } from "../live";
import { formatNumber, h, record, registerWidget, textOr, uniqueId, type Params } from "./kit";
import { choiceGroup, mistakeToggle } from "./shared/controls";
import "./head-slices.css";

interface Slices {
  nHead: number;
  headDim: number;
  /** [lo, hi) of each head, as the slices are written (possibly past n_embd). */
  spans: Array<[number, number]>;
}

function numbers(value: unknown): number[] | null {
  return Array.isArray(value) && value.every((x) => typeof x === "number" && Number.isFinite(x))
    ? (value as number[]) : null;
}

/** The slices gpt() takes with n_head heads; `byHeads` is the mistake (steps of n_head). */
function slicesFor(nEmbd: number, nHead: number, byHeads: boolean): Slices {
  const headDim = Math.floor(nEmbd / nHead);
  const step = byHeads ? nHead : headDim;
  const spans: Array<[number, number]> = [];
  for (let head = 0; head < nHead; head += 1) spans.push([head * step, (head + 1) * step]);
  return { nHead, headDim, spans };
}

/** Python's q[lo:hi] on a list of n numbers: the indices it really takes. */
function taken(lo: number, hi: number, n: number): number[] {
  const out: number[] = [];
  for (let i = Math.max(0, lo); i < Math.min(hi, n); i += 1) out.push(i);
  return out;
}

function softmax(scores: number[]): number[] {
  const biggest = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - biggest));
  const total = exps.reduce((sum, e) => sum + e, 0);
  return exps.map((e) => e / total);
}

/** One head's scores against every key: its slice of q against the same slice of each key. */
function scoresOf(q: number[], keys: number[][], lo: number, hi: number, headDim: number): number[] {
  const index = taken(lo, hi, q.length);
  return keys.map((key) => index.reduce((sum, i) => sum + q[i] * key[i], 0) / Math.sqrt(headDim));
}

function mountHeadSlices(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const q = numbers(data.q);
  const keys = Array.isArray(data.keys) ? data.keys.map(numbers) : [];
  const labels = Array.isArray(data.labels) ? data.labels.map(String) : [];
  const nEmbd = typeof data.n_embd === "number" ? data.n_embd : 0;
  if (!q || q.length !== nEmbd || keys.length === 0 || keys.some((k) => !k || k.length !== nEmbd)) {
    root.append(h("p", {}, "This widget has no query and keys to show."));
    return;
  }
  const keyRows = keys as number[][];
  const offered = (Array.isArray(params.heads) ? params.heads : [])
    .filter((n): n is number => typeof n === "number" && Number.isInteger(n) && n >= 1 && nEmbd % n === 0);
  if (offered.length === 0) offered.push(1);
  const start = offered.includes(params.start as number) ? (params.start as number) : offered[0];
  let nHead = start;
  let mistaken = false;

  const picker = choiceGroup({
    legend: "How many heads share q's numbers", name: "hs-heads",
    choices: offered.map((n) => ({ label: [`n_head = ${n}`], value: String(n) })),
    onPick: (index) => { nHead = offered[index]; update(); },
  });
  for (const input of picker.querySelectorAll<HTMLInputElement>("input")) input.checked = input.value === String(start);
  const mistakeText = textOr(params.mistake, null);
  const toggle = mistakeText ? mistakeToggle(mistakeText, { name: "hs-mistake" }) : null;
  toggle?.input.addEventListener("change", () => { mistaken = toggle.input.checked; update(); });

  const sizes = h("p", { class: "hs-sizes", "data-readout": "sizes" });
  const cellsTitle = uniqueId("hs-cells");
  const cells = h("ol", { class: "hs-cells", "aria-labelledby": cellsTitle });
  const cards = h("div", { class: "hs-cards" });
  const verdict = h("p", { class: "kit-verdict", role: "status", "data-readout": "verdict" });
  root.append(h("div", { class: "hs" },
    h("div", { class: "kit-settings" }, picker, toggle ? toggle.label : null),
    sizes,
    h("h3", { class: "kit-title", id: cellsTitle }, `The ${nEmbd} numbers of q, and the head that reads each`),
    cells, verdict,
    h("h3", { class: "kit-title" }, "Each head: its slice, its scores, its own softmax"),
    cards,
    textOr(data.caption, null) ? h("p", { class: "kit-caption" }, String(data.caption)) : null));

  function update(): void {
    const slices = slicesFor(nEmbd, nHead, mistaken);
    const right = slicesFor(nEmbd, nHead, false);
    const readers: number[][] = Array.from({ length: nEmbd }, () => []);
    slices.spans.forEach(([lo, hi], head) => { for (const i of taken(lo, hi, nEmbd)) readers[i].push(head); });
    sizes.textContent = `n_head = ${nHead}, so head_dim = ${nEmbd} // ${nHead} = ${slices.headDim}: `
      + `each score adds up ${slices.headDim} products and is divided by √${slices.headDim} = ${formatNumber(Math.sqrt(slices.headDim), 3)}.`;
    cells.replaceChildren(...q!.map((value, i) => {
      const who = readers[i];
      const state = who.length === 0 ? "unread" : who.length > 1 ? "twice" : "once";
      const tone = who.length === 1 ? ` hs-tone-${who[0] % 4}` : "";
      const whoText = who.length === 0 ? "no head" : who.map((head) => `head ${head}`).join(" and ");
      return h("li", {
        class: `hs-cell hs-${state}${tone}`, "data-cell": i, "data-heads": who.join(","), "data-value": value,
        "aria-label": `q[${i}] = ${formatNumber(value, 3)}, read by ${whoText}`,
      }, h("span", { class: "hs-index", "aria-hidden": "true" }, String(i)),
      h("span", { class: "hs-value", "aria-hidden": "true" }, formatNumber(value, 2)),
      h("span", { class: "hs-who", "aria-hidden": "true" }, who.length === 0 ? "—" : who.map((head) => `h${head}`).join("+")));
    }));
    cards.replaceChildren(...slices.spans.map(([lo, hi], head) => card(head, lo, hi, slices.headDim, right.spans[head])));
    const unread = readers.filter((who) => who.length === 0).length;
    const twice = readers.filter((who) => who.length > 1).length;
    const same = slices.spans.every(([lo, hi], head) => lo === right.spans[head][0] && hi === right.spans[head][1]);
    let text: string;
    if (!mistaken) {
      text = `${nHead} head${nHead > 1 ? "s" : ""} × ${slices.headDim} numbers = ${nEmbd}: every number of q is read by exactly one head.`;
    } else if (same) {
      text = `With ${nHead} heads of ${slices.headDim}, n_head and head_dim are the same number, so stepping by n_head gives exactly the right slices: `
        + "the mistake cannot show here. Pick another number of heads.";
    } else {
      const idle = slices.spans.filter(([lo, hi]) => taken(lo, hi, nEmbd).length === 0).length;
      const parts = [
        unread ? `${unread} of the ${nEmbd} numbers are read by no head` : `all ${nEmbd} numbers are read`,
        twice ? `${twice} by more than one head` : "",
        idle ? `${idle} of the ${nHead} heads read nothing at all (their slices start past the end of q)` : "",
        `each head's slice is ${nHead} wide instead of ${slices.headDim}`,
      ].filter(Boolean);
      text = `Stepping by n_head = ${nHead} instead of head_dim = ${slices.headDim}: ${parts.join("; ")}.`;
    }
    say(verdict, text);
    verdict.dataset.tone = mistaken && !same ? "bad" : "good";
    verdict.dataset.unread = String(unread);
  }

  function card(head: number, lo: number, hi: number, headDim: number, right: [number, number]): HTMLElement {
    const scores = scoresOf(q!, keyRows, lo, hi, headDim);
    const weights = softmax(scores);
    const wrong = lo !== right[0] || hi !== right[1];
    const index = taken(lo, hi, nEmbd);
    const reads = index.length === 0 ? "nothing" : `q[${lo}:${hi}]${index.length !== hi - lo ? ` (only ${index.length} numbers exist there)` : ""}`;
    const rows = keyRows.map((_, t) => h("tr", { "data-key": t },
      h("th", { scope: "row" }, labels[t] ?? String(t)),
      h("td", { "data-score": scores[t] }, formatNumber(scores[t], 4)),
      h("td", { "data-weight": weights[t] },
        h("span", { class: "hs-bar", "aria-hidden": "true" }, h("span", { class: "hs-fill", style: `width: ${(weights[t] * 100).toFixed(1)}%` })),
        h("span", { class: "hs-weight" }, formatNumber(weights[t], 3)))));
    return h("section", { class: `hs-card hs-tone-${head % 4}${wrong ? " hs-card-wrong" : ""}`, "data-head": head, "data-lo": lo, "data-hi": hi },
      h("h4", {}, `Head ${head}: lo, hi = ${lo}, ${hi}`),
      h("p", { class: "hs-reads" }, `reads ${reads}`, wrong ? `, not q[${right[0]}:${right[1]}]` : ""),
      h("table", { class: "hs-table" },
        h("caption", { class: "visually-hidden" }, `Head ${head}'s score and attention for each position`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "key"), h("th", { scope: "col" }, "score"), h("th", { scope: "col" }, "attention"))),
        h("tbody", {}, ...rows)));
  }

  update();
}

registerWidget("head-slices", mountHeadSlices);
