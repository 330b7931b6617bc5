// The widget kit: a lesson declares `explore: {kind, params}`; the page mounts the component
// registered for that kind. A new widget is one small component registered here by kind.

export type Params = Record<string, unknown>;
export type Mount = (root: HTMLElement, params: Params) => void;

const registry = new Map<string, Mount>();

export function registerWidget(kind: string, mount: Mount): void {
  registry.set(kind, mount);
}

/** Mount every `[data-widget]` element of the page from its JSON parameters. */
export function mountWidgets(doc: Document = document): void {
  for (const root of doc.querySelectorAll<HTMLElement>("[data-widget]")) {
    const kind = root.dataset.widget ?? "";
    const mount = registry.get(kind);
    const paramsId = root.dataset.paramsId;
    const source = paramsId ? doc.getElementById(paramsId)?.textContent : null;
    if (!mount || !source) {
      root.textContent = `This widget (${kind}) is not available.`;
      continue;
    }
    root.replaceChildren();
    mount(root, JSON.parse(source) as Params);
  }
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
