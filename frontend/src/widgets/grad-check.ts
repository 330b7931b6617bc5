// Explore widget "grad-check" (lesson 6.4): the slope nudging measures and the gradient backprop
// gives, weight by weight, with the worst difference highlighted; and the same comparison with a
// classic mistake (a sign flipped, a gate missing, a nudge too large...). The lesson's own code
// computes both columns (explore.compute); the differences, the worst and the verdict are
// worked out here from those numbers.

import { sayWith } from "../live";
import { h, record, registerWidget, textOr, type Params } from "./kit";
import { choiceGroup } from "./shared/controls";
import "./grad-check.css";

interface Row {
  weight: string;
  numerical: number;
  analytic: number;
}

interface Variant {
  label: string;
  note: string;
  nudge: number;
  rows: Row[];
}

function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function parseVariants(raw: unknown): Variant[] {
  const variants: Variant[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    const fields = record(item);
    const rows = (Array.isArray(fields.rows) ? fields.rows : []).map(record)
      .filter((row) => typeof row.weight === "string" && finite(row.numerical) && finite(row.analytic))
      .map((row) => ({ weight: row.weight as string, numerical: row.numerical as number, analytic: row.analytic as number }));
    if (typeof fields.label !== "string" || !finite(fields.nudge) || rows.length === 0) continue;
    variants.push({ label: fields.label, note: typeof fields.note === "string" ? fields.note : "", nudge: fields.nudge, rows });
  }
  return variants;
}

/** A gradient with 8 decimals and a real minus sign. */
function fixed(x: number): string {
  const text = x.toFixed(8);
  return (/^-0\.0+$/.test(text) ? text.slice(1) : text).replace("-", "−");
}

/** A difference as Python's "%.1e" prints it (4.3e-11), with a real minus sign. */
function exponent(x: number): string {
  return x.toExponential(1).replace(/e([+-])(\d)$/, "e$10$2").replace("-", "−");
}

/** A nudge as it is written in code: 0.00001 rather than 1e-5, but 1e-12 as it is. */
function nudgeText(x: number): string {
  return x >= 1e-6 ? String(Number(x.toFixed(8))) : x.toExponential().replace("-", "−");
}

function mountGradCheck(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const variants = parseVariants(data.variants);
  const name = typeof data.name === "string" ? data.name : "the name";
  if (variants.length === 0) {
    root.append(h("p", {}, "This widget has no numbers to show."));
    return;
  }
  const tolerance = finite(params.tolerance) && params.tolerance > 0 ? params.tolerance : 1e-6;
  const mistakeText = textOr(params.mistake, "Try a mistake");
  let selected = 0;

  // The right version first, then the mistakes under a line that says so.
  const picker = choiceGroup({
    legend: "Backprop and the nudge", name: "gc-variant", groupClass: "gc-picker", choiceClass: "gc-choice",
    choices: variants.map((variant) => ({ label: [" ", variant.label] })),
    onPick: (index) => {
      selected = index;
      render();
    },
  });
  if (variants.length > 1) picker.children[1].after(h("p", { class: "gc-try" }, `${mistakeText}:`));

  const verdict = h("p", { class: "kit-callout", "aria-live": "polite", "data-verdict": "" });
  const note = h("p", { class: "gc-note", "data-note": "" });
  const body = h("tbody", {});
  const table = h("table", { class: "gc-table" },
    h("caption", {}, `The 15 weights train1's check nudges, for '${name}'`),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "weight"),
      h("th", { scope: "col" }, "nudging"),
      h("th", { scope: "col" }, "backprop"),
      h("th", { scope: "col" }, "difference"))),
    body);
  root.append(h("div", { class: "gc" }, picker, verdict, note, h("div", { class: "gc-scroll" }, table)));

  function render(): void {
    const variant = variants[selected];
    const gaps = variant.rows.map((row) => Math.abs(row.numerical - row.analytic));
    const worst = gaps.reduce((best, gap, i) => (gap > gaps[best] ? i : best), 0);
    const ok = gaps[worst] < tolerance;
    body.replaceChildren(...variant.rows.map((row, i) => {
      const bad = gaps[i] >= tolerance;
      return h("tr", { class: [i === worst ? "gc-worst" : "", bad ? "gc-bad" : ""].join(" ").trim(), "data-weight": row.weight },
        h("th", { scope: "row" }, row.weight, i === worst ? h("span", { class: "gc-badge" }, "worst") : null),
        h("td", { "data-numerical": String(row.numerical), "data-label": "nudging" }, fixed(row.numerical)),
        h("td", { "data-analytic": String(row.analytic), "data-label": "backprop" }, fixed(row.analytic)),
        h("td", { "data-gap": String(gaps[i]), "data-label": "difference" }, exponent(gaps[i])));
    }));
    sayWith(verdict,
      "max difference ", h("strong", { "data-worst": String(gaps[worst]) }, exponent(gaps[worst])),
      ` at ${variant.rows[worst].weight}: `,
      ok ? `below ${exponent(tolerance)}, so backprop and nudging agree.`
        : `far above ${exponent(tolerance)}, so they disagree: something is wrong.`);
    verdict.dataset.tone = ok ? "good" : "bad";
    note.textContent = `${variant.note} (nudge = ${nudgeText(variant.nudge)})`;
  }

  render();
}

registerWidget("grad-check", mountGradCheck);
