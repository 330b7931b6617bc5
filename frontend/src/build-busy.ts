// When Build finds the page's one Python busy with something else (the Explore training of 1.1
// or 6.6), Run and Check say so beside the toolbar and offer "Stop the training and run my code"
// or "Let it finish": never a silent click. The focus goes back to the button the learner
// pressed, never to <body>.
import type { Job, Python } from "./python";

export type Action = "run" | "check";

const GAP_MS = 100; // a widget's next job (the training's second script) starts within this

/** Resolves when Python is free or busy with Build's own work: a widget may run several jobs in
 *  a row (1.1 trains train0.py, then microgpt.py), so a short gap after one ends is waited out.
 *  `stop`: interrupt each such job rather than wait for it. */
export async function otherWorkEnds(python: Python, stop = false): Promise<void> {
  while (python.busy && !python.busyWith?.build) {
    if (stop) python.stop("user");
    await python.whenIdle();
    await new Promise((resolve) => window.setTimeout(resolve, GAP_MS));
  }
}

export interface BusyNotice {
  /** Python was busy when the learner pressed Run or Check: say with what, offer the way out. */
  tell(action: Action, job: Job | null): void;
  hide(): void;
}

export function busyNotice(parts: {
  box: HTMLElement; take: HTMLButtonElement; letItFinish: HTMLButtonElement; buttons: Record<Action, HTMLButtonElement>;
}, python: Python, say: (text: string, tone?: "busy") => void, act: (action: Action) => Promise<void>): BusyNotice {
  let shown = 0; // which notice is on screen (0: none)
  let action: Action = "run";

  const hide = (): void => {
    shown = 0;
    parts.box.hidden = true;
  };

  parts.take.addEventListener("click", async () => {
    const job = python.busyWith;
    hide();
    parts.buttons[action].focus();
    if (job) say(`Stopping ${job.what}…`);
    await otherWorkEnds(python, true);
    await act(action);
  });
  parts.letItFinish.addEventListener("click", () => {
    hide();
    parts.buttons[action].focus();
  });

  return {
    hide,
    tell(pressed: Action, job: Job | null): void {
      if (!job || job.build) {
        say(`Python is still busy with ${job?.what ?? "your last run"}: wait for it, or press Stop.`, "busy");
        return;
      }
      action = pressed;
      say(`Python is busy with ${job.what} ${job.where}, so your code has not ${action === "run" ? "run" : "been checked"} yet.`, "busy");
      parts.take.textContent = `Stop ${job.what} and ${action} my code`;
      parts.box.hidden = false;
      const notice = ++shown;
      void otherWorkEnds(python).then(() => {
        if (shown !== notice) return;
        hide();
        say(`Python is free again: press ${action === "run" ? "Run" : "Check"}.`);
      });
    },
  };
}
