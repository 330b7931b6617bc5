// Explore widget "rule-cards" (lesson 4.6): the table of local gradients as a set of cards, one
// per operation. A card opens (click, Enter or Space) to show the rule, its number at x, the slope
// measured by nudging x, and the classic wrong rule beside them. Any x can be typed in.

import { finiteOr, formatNumber, h, record, registerWidget, uniqueId, type Params } from "./kit";
import { isOp, opRate, opValue, power as powerOf, type Op } from "./shared/ops";
import "./rule-cards.css";

interface Card { op: Op; x: number; k: number }

const AGREE = 1e-4; // the same tolerance as rule_cards.py

/** The classic wrong rule of each operation, and what it mixes up. */
function mistake(op: Op, x: number, k: number): { number: number; text: string } {
  switch (op) {
    case "add": return { number: k, text: "taking the other number, b, as the rate (that is mul's rule)" };
    case "mul": return { number: x, text: "taking x's own number instead of the other factor's" };
    case "pow": return { number: Math.pow(x, k - 1), text: `forgetting the factor n: ${power(k - 1)}` };
    case "log": return { number: x > 0 ? Math.log(x) : Number.NaN, text: "taking log x itself as the slope" };
    case "exp": return { number: x, text: "taking x as the slope" };
    case "relu": return x === 0
      ? { number: 1, text: "counting x = 0 as on (>= instead of >)" }
      : { number: Math.max(0, x), text: "taking relu's output, max(0, x), as its slope" };
  }
}

function title(op: Op, k: number): string {
  const kk = formatNumber(k);
  switch (op) {
    case "add": return `add: out = x + b, with b = ${kk}`;
    case "mul": return `mul: out = x · b, with b = ${kk}`;
    case "pow": return `pow: out = x ** n, with n = ${kk}`;
    case "log": return "log: out = log x";
    case "exp": return "exp: out = exp x";
    case "relu": return "relu: out = max(0, x)";
  }
}

function ruleText(op: Op, k: number): string {
  switch (op) {
    case "add": return "1: out moves exactly as much as x; b does not move";
    case "mul": return "b, the other factor";
    case "pow": return `n · xⁿ⁻¹ = ${formatNumber(k)} · ${power(k - 1)}`;
    case "log": return "1 / x";
    case "exp": return "exp x, the same as out itself";
    case "relu": return "1 where x > 0 (on), 0 elsewhere (off), also at exactly 0";
  }
}

/** x to the power k, as a learner writes it: 1 (for k = 0), x, x², x⁻¹, x^0.5. */
function power(k: number): string {
  return k === 0 ? "1" : powerOf("x", k);
}

function precise(x: number): string {
  return Number.isFinite(x) ? Number(x.toPrecision(10)).toString().replace("-", "−") : "undefined";
}

function mountRuleCards(root: HTMLElement, params: Params): void {
  const nudge = finiteOr(params.h, 0.0001);
  const cards: Card[] = [];
  for (const raw of Array.isArray(params.cards) ? params.cards : []) {
    const fields = record(raw);
    const op = fields.op;
    if (!isOp(op)) continue;
    cards.push({ op, x: finiteOr(fields.x, 1), k: op === "pow" ? finiteOr(fields.n, 2) : finiteOr(fields.other, 1) });
  }
  if (cards.length === 0) {
    root.append(h("p", {}, "This widget has no cards to show."));
    return;
  }
  const list = h("ul", { class: "rc-cards" });
  const openAll = h("button", { type: "button", class: "secondary" }, "Open every card");
  const toggles: HTMLButtonElement[] = [];
  openAll.addEventListener("click", () => {
    const open = toggles.some((t) => t.getAttribute("aria-expanded") === "false");
    for (const toggle of toggles) if ((toggle.getAttribute("aria-expanded") === "true") !== open) toggle.click();
    openAll.textContent = open ? "Close every card" : "Open every card";
  });

  for (const card of cards) {
    const backId = uniqueId("rc-back");
    const inputId = uniqueId("rc-x");
    const toggle = h("button", { type: "button", class: "rc-toggle", "aria-expanded": "false", "aria-controls": backId, "data-op": card.op },
      h("span", { class: "rc-title" }, title(card.op, card.k)),
      h("span", { class: "rc-question" }, "Local grad: how fast does out move when x moves? Think, then open."));
    const input = h("input", { type: "number", id: inputId, step: "any", value: String(card.x), class: "kit-input rc-input" });
    const out = (key: string): HTMLElement => h("b", { "data-readout": key });
    const ruleOut = out("rule");
    const nudgeOut = out("nudge");
    const wrongOut = out("wrong");
    const arithmetic = h("span", { class: "rc-how" });
    const verdict = h("p", { class: "kit-verdict rc-verdict" });
    const wrongText = h("span", {});
    const chance = h("span", {});
    const back = h("div", { class: "rc-back", id: backId, hidden: true },
      h("p", { class: "rc-rule" }, "Rule: ", h("span", {}, ruleText(card.op, card.k))),
      h("p", { class: "rc-x" }, h("label", { for: inputId }, "at x = "), input),
      h("p", {}, "the rule gives ", ruleOut),
      h("p", {}, "nudging x by ±", formatNumber(nudge, 6), " measures ", nudgeOut, h("br"), arithmetic),
      verdict,
      h("p", { class: "rc-mistake" }, "Classic mistake: ", wrongText, " gives ", wrongOut, chance, "."));
    toggle.addEventListener("click", () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      back.hidden = !open;
    });
    toggles.push(toggle);

    const update = (): void => {
      const raw = Number(input.value);
      const x = input.value.trim() !== "" && Number.isFinite(raw) ? raw : card.x;
      const exact = opRate(card.op, x, card.k);
      const up = opValue(card.op, x + nudge, card.k);
      const down = opValue(card.op, x - nudge, card.k);
      const measured = (up - down) / (2 * nudge);
      const wrong = mistake(card.op, x, card.k);
      ruleOut.textContent = Number.isFinite(exact) ? formatNumber(exact) : "undefined here";
      ruleOut.dataset.value = String(exact);
      nudgeOut.textContent = Number.isFinite(measured) ? formatNumber(measured) : "undefined here";
      nudgeOut.dataset.value = String(measured);
      arithmetic.textContent = `(out(${precise(x + nudge)}) − out(${precise(x - nudge)})) / ${precise(2 * nudge)} = (${precise(up)} − ${precise(down)}) / ${precise(2 * nudge)}`;
      wrongText.textContent = wrong.text;
      wrongOut.textContent = Number.isFinite(wrong.number) ? formatNumber(wrong.number) : "undefined";
      wrongOut.dataset.value = String(wrong.number);
      const same = Math.abs(wrong.number - exact) <= AGREE * Math.max(1, Math.abs(exact));
      chance.textContent = same ? ": the same number here, by chance; try another x" : "";
      const ok = Number.isFinite(exact) && Number.isFinite(measured) && Math.abs(exact - measured) <= AGREE * Math.max(1, Math.abs(exact));
      if (!Number.isFinite(measured) || !Number.isFinite(exact)) {
        verdict.textContent = "Undefined here: log needs x above 0.";
        verdict.dataset.tone = "warn";
      } else if (card.op === "relu" && Math.abs(x) <= nudge) {
        verdict.textContent = "x is on relu's corner: the nudge straddles the flat side (slope 0) and the rising side (slope 1) and averages them. There is no single slope here; microgpt takes the flat side, 0.";
        verdict.dataset.tone = "warn";
      } else {
        verdict.textContent = ok ? "The rule and the nudge agree." : "The rule and the nudge differ here: the curve bends too sharply within the nudge.";
        verdict.dataset.tone = ok ? "good" : "warn";
      }
    };
    input.addEventListener("input", update);
    update();
    list.append(h("li", { class: "rc-card" }, toggle, back));
  }
  root.append(h("div", { class: "rc" }, h("div", { class: "rc-top" }, openAll), list));
}

registerWidget("rule-cards", mountRuleCards);
