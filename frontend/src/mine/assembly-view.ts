// The assembled file on the page: each region a lesson teaches marked "yours" (your passing code
// for that lesson) or "reference" (and why), linked to its lesson; the lines between as they are.
import type { CourseSummary } from "../progress";

export interface AssembledRegion {
  lesson: string; title: string; first: number; last: number; origin: "yours" | "reference";
  reason: string; url: string;
}

export interface Assembled {
  script: string; filename: string; text: string; regions: AssembledRegion[];
  yours: number; total: number; notes: string[];
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ""): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}

function lines(all: string[], first: number, last: number): HTMLOListElement {
  const list = element("ol", "mine-lines");
  list.start = first;
  for (let n = first; n <= last; n += 1) {
    const item = element("li", "");
    item.id = `M${n}`;
    item.append(element("code", "", all[n - 1] ?? ""));
    list.append(item);
  }
  return list;
}

export function renderAssembly(holder: HTMLElement, notesList: HTMLElement, answer: Assembled,
                               _course: CourseSummary, extraNotes: string[]): void {
  const all = answer.text.replace(/\n$/, "").split("\n");
  const parts: HTMLElement[] = [];
  let next = 1;
  for (const region of answer.regions) {
    if (region.first > next) {
      const plain = element("div", "mine-part");
      plain.append(lines(all, next, region.first - 1));
      parts.push(plain);
    }
    const part = element("div", `mine-part mine-${region.origin}`);
    part.dataset.origin = region.origin;
    part.dataset.lesson = region.lesson;
    const label = element("p", "mine-label");
    // Which Build wrote (or will write) these lines: it may be a later lesson than the one that
    // first taught them (11.4's Build writes line 158 again, in a function of its own).
    label.append(element("span", "mine-origin", region.origin === "yours" ? "Yours" : "Reference"),
      region.origin === "yours" ? " · from your Build in lesson " : " · in place of your Build in lesson ");
    const link = element("a", "", `${region.lesson} ${region.title}`);
    link.href = region.url;
    label.append(link);
    if (region.origin === "reference" && region.reason) label.append(`: ${region.reason}`);
    part.append(label, lines(all, region.first, region.last));
    parts.push(part);
    next = region.last + 1;
  }
  if (next <= all.length) {
    const plain = element("div", "mine-part");
    plain.append(lines(all, next, all.length));
    parts.push(plain);
  }
  holder.replaceChildren(...parts);
  notesList.replaceChildren(...[...answer.notes, ...extraNotes].map((note) => element("li", "", note)));
  notesList.hidden = notesList.childElementCount === 0;
}

/** Save the assembled file as the learner's own download. */
export function downloadAssembled(assembled: Assembled): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([assembled.text], { type: "text/x-python" }));
  link.download = assembled.filename;
  link.click();
  URL.revokeObjectURL(link.href);
}
