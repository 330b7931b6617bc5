// The Build part's Output panel: what the learner's code printed, tracebacks in red with their
// line numbers as links into the editor. The panel itself is not a live region (a screen reader
// would read every printed line aloud); a one-line status beside the toolbar says how a run ended.
import type { Editor } from "./editor";

export type Stream = "stdout" | "stderr" | "note";

export interface OutputPanel {
  clear(): void;
  write(text: string, stream: Stream): void;
  /** Whether anything was written since the last clear. */
  empty(): boolean;
  /** How many lines the learner's code has printed since the last clear. */
  lines(): number;
}

/** `File "name.py", line 12` in a traceback, for the learner's own file only. */
function lineReference(filename: string): RegExp {
  return new RegExp(`File "${filename.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}", line (\\d+)`, "g");
}

export function outputPanel(element: HTMLElement, filename: string, editor: Editor): OutputPanel {
  let printed = 0;
  const pattern = lineReference(filename);

  function lineLink(text: string, line: number): HTMLButtonElement {
    const link = document.createElement("button");
    link.type = "button";
    link.className = "line-link";
    link.textContent = text;
    link.addEventListener("click", () => editor.goToLine(line));
    return link;
  }

  return {
    clear(): void {
      element.replaceChildren();
      printed = 0;
    },
    write(text: string, stream: Stream): void {
      const span = document.createElement("span");
      span.className = stream;
      let last = 0;
      for (const match of text.matchAll(pattern)) {
        span.append(text.slice(last, match.index), lineLink(match[0], Number(match[1])));
        last = (match.index ?? 0) + match[0].length;
      }
      span.append(text.slice(last));
      element.append(span);
      element.scrollTop = element.scrollHeight;
      if (stream === "stdout") printed += (text.match(/\n/g) ?? []).length;
    },
    empty: () => !element.textContent,
    lines: () => printed,
  };
}
