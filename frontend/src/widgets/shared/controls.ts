// The controls Explore widgets share: a group of choices (radio buttons), a "try the mistake"
// checkbox, and Back / Step buttons with a "step k / n" counter and the arrow keys. Their look is
// in kit.css (.kit-picker, .kit-choice, .kit-toggle, .kit-controls, .kit-counter). Not a widget
// itself: build.mjs builds only the files directly in src/widgets/ as widgets.

import { h, uniqueId } from "../kit";

type Content = Node | string | null;

export interface Choice {
  /** What the choice shows after its radio button. */
  label: Content[];
  /** A classic mistake: it turns red when picked. */
  mistake?: boolean;
  /** The radio's value (its index when not given). */
  value?: string;
}

export interface ChoiceGroupOptions {
  legend: string;
  /** A legend only screen readers read (the choices explain themselves). */
  hiddenLegend?: boolean;
  choices: Choice[];
  /** Called with the index of the choice picked. */
  onPick: (index: number) => void;
  /** The start of the radios' name and ids. */
  name: string;
  /** The classes of the fieldset and of each choice: the kit's pills unless a widget draws its own. */
  groupClass?: string;
  choiceClass?: string;
}

/** A fieldset of radio buttons, the first one picked; arrow keys move between them as usual. */
export function choiceGroup(options: ChoiceGroupOptions): HTMLFieldSetElement {
  const name = uniqueId(options.name);
  const choiceClass = options.choiceClass ?? "kit-choice";
  const labels = options.choices.map((choice, index) => {
    const id = `${name}-${index}`;
    const input = h("input", { type: "radio", name, id, value: choice.value ?? String(index), checked: index === 0 });
    input.addEventListener("change", () => {
      if (input.checked) options.onPick(index);
    });
    return h("label", { class: choice.mistake ? `${choiceClass} kit-choice-mistake` : choiceClass, for: id },
      input, ...choice.label);
  });
  const legend = h("legend", options.hiddenLegend ? { class: "visually-hidden" } : {}, options.legend);
  return h("fieldset", { class: options.groupClass ?? "kit-picker" }, legend, ...labels);
}

/** The red "Try the mistake:" that leads a mistaken choice. */
export function mistakeBadge(): HTMLElement {
  return h("span", { class: "kit-badge" }, "Try the mistake:");
}

export interface Toggle {
  label: HTMLLabelElement;
  input: HTMLInputElement;
}

/**
 * A "try the mistake" checkbox in its label: a box that turns red when ticked, or, `dashed`, a
 * box with a red dashed border. `className` adds a widget's own class (a layout hook).
 */
export function mistakeToggle(text: string, options: {
  name: string; dashed?: boolean; className?: string; inputAttrs?: Record<string, string>;
}): Toggle {
  const id = uniqueId(options.name);
  const input = h("input", { type: "checkbox", id, ...options.inputAttrs });
  const classes = [options.dashed ? "kit-toggle-dashed" : "kit-toggle", options.className].filter(Boolean).join(" ");
  const label = h("label", { class: classes, for: id }, input, " ", text);
  return { label, input };
}

export interface StepControls {
  /** A .kit-controls row: the buttons, then the counter. A widget may append more (a toggle). */
  row: HTMLElement;
  /** The step on screen, from 0 to the last. */
  step(): number;
  /** Show a step (kept between 0 and the last), then update the counter and the buttons. */
  go(to: number): void;
  /**
   * Left and Right arrow keys step back and forward while the focus is inside `area`, except in
   * an input (where the keys belong to it); `checkboxes` lets them step from a checkbox too.
   */
  arrowKeys(area: HTMLElement, checkboxes?: boolean): void;
}

export interface StepOptions {
  /** The last step (the first is 0). */
  last: () => number;
  /** Draw a step. */
  show: (step: number) => void;
  back?: string;
  forward?: string;
  /** Offer "To the end" and "Reset" buttons. */
  toEnd?: boolean;
  reset?: boolean;
  /** The counter's text; "step k / n" unless given. */
  counter?: (step: number, last: number) => string;
  /** The data attribute that marks the counter (tests and styles find it by it). */
  counterAttr?: string;
}

/** ◀ Back and Step ▶ buttons (optionally To the end and Reset) with a counter. */
export function stepControls(options: StepOptions): StepControls {
  let step = 0;
  const back = h("button", { type: "button", class: "secondary", "aria-keyshortcuts": "ArrowLeft" }, options.back ?? "◀ Back");
  const forward = h("button", { type: "button", "aria-keyshortcuts": "ArrowRight" }, options.forward ?? "Step ▶");
  const toEnd = options.toEnd ? h("button", { type: "button", class: "secondary" }, "To the end") : null;
  const reset = options.reset ? h("button", { type: "button", class: "secondary" }, "Reset") : null;
  const counter = h("span", { class: "kit-counter", [options.counterAttr ?? "data-step-counter"]: "" });
  const text = options.counter ?? ((k: number, n: number): string => `step ${k} / ${n}`);

  function go(to: number): void {
    const last = options.last();
    step = Math.max(0, Math.min(last, to));
    options.show(step);
    counter.textContent = text(step, last);
    back.setAttribute("aria-disabled", String(step === 0));
    forward.setAttribute("aria-disabled", String(step === last));
  }

  back.addEventListener("click", () => go(step - 1));
  forward.addEventListener("click", () => go(step + 1));
  toEnd?.addEventListener("click", () => go(options.last()));
  reset?.addEventListener("click", () => go(0));

  return {
    row: h("div", { class: "kit-controls" }, back, forward, toEnd, reset, counter),
    step: () => step,
    go,
    arrowKeys(area: HTMLElement, checkboxes = false): void {
      area.addEventListener("keydown", (event) => {
        if (event.altKey || event.ctrlKey || event.metaKey) return;
        const target = event.target;
        if (target instanceof HTMLInputElement && !(checkboxes && target.type === "checkbox")) return;
        if (event.key === "ArrowRight") go(step + 1);
        else if (event.key === "ArrowLeft") go(step - 1);
        else return;
        event.preventDefault();
      });
    },
  };
}
