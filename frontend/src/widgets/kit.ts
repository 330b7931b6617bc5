// The widget kit: a lesson declares `explore: {kind, params}`; its page loads that kind's own
// script (src/widgets/<kind>.ts, built as a separate file so a page only downloads the widget it
// shows), which calls registerWidget. A new widget is one file that registers itself by kind.
import type { Python } from "../python";
import "./kit.css";

export type Params = Record<string, unknown>;
export type Mount = (root: HTMLElement, params: Params) => void;

/** Mount `mount` on every element of the page that asks for this kind, from its JSON parameters. */
export function registerWidget(kind: string, mount: Mount, doc: Document = document): void {
  for (const root of doc.querySelectorAll<HTMLElement>(`[data-widget="${kind}"]:not([data-mounted])`)) {
    const paramsId = root.dataset.paramsId;
    const source = paramsId ? doc.getElementById(paramsId)?.textContent : null;
    root.dataset.mounted = "";
    if (!source) {
      root.textContent = `This widget (${kind}) has no parameters.`;
      continue;
    }
    root.replaceChildren();
    mount(root, JSON.parse(source) as Params);
  }
}

// The page's Python (one worker per page), shared with widgets that run code: the lesson page
// provides it once it has made it; a widget asks for it when the learner wants to run something.
let providePythonTo: (python: Python) => void = () => undefined;
const pagePython = new Promise<Python>((resolve) => { providePythonTo = resolve; });

export function providePython(python: Python): void {
  providePythonTo(python);
}

export function pythonOfThePage(): Promise<Python> {
  return pagePython;
}

type Child = Node | string | null | undefined | false;

/** Create an element: h("button", {type: "button", class: "x"}, "Step"). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Record<string, string | number | boolean> = {}, ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes. */
export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
}

/** A number as a learner reads it: up to 4 decimals, no trailing zeros, a real minus sign. */
export function formatNumber(x: number, digits = 4): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "undefined" : x > 0 ? "∞" : "−∞";
  const rounded = Number(x.toFixed(digits));
  const text = (Object.is(rounded, -0) ? 0 : rounded).toString();
  return text.replace("-", "−");
}

let uniqueCounter = 0;
/** An id no other element of the page has, for label/for and aria pairs. */
export function uniqueId(prefix: string): string {
  uniqueCounter += 1;
  return `${prefix}-${uniqueCounter}`;
}

/** The fields of a JSON object (anything else has none): parameters come from a lesson's JSON. */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>) : {};
}

/** A finite number, or the fallback. */
export function finiteOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** A text that says something (not blank), or the fallback. */
export function textOr<T extends string | null>(value: unknown, fallback: T): string | T {
  return typeof value === "string" && value.trim() ? value : fallback;
}

/** A list of texts, or null when the value is anything else. */
export function textList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : null;
}

/** What a script run by a widget printed: its output one whole line at a time (Python's prints
 * arrive in chunks that may end mid-line), and its error stream, whose last line says why it
 * stopped. */
export class PrintedLines {
  private buffer = "";
  private errors = "";

  constructor(private readonly onLines: (lines: string[]) => void) {}

  /** The `onOutput` of python.run. */
  readonly take = (chunk: string, stream: "stdout" | "stderr"): void => {
    if (stream === "stderr") { this.errors += chunk; return; }
    const lines = (this.buffer + chunk).split("\n");
    this.buffer = lines.pop() ?? "";
    this.onLines(lines);
  };

  /** The last line of the error stream ("" when there was none). */
  lastError(): string {
    return this.errors.trim().split("\n").slice(-1)[0] ?? "";
  }
}
