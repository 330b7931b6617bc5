// The Build part's checks list. Each check says what it measured (its message) at once; the
// literal line(s) to write (its fix) wait until the learner has struggled: the same check failed
// in the last three checked runs of the lesson on this device, or the learner opened the last
// hint. Giving the line away on the first failure would make the hints pointless.
import type { CheckItem, CheckResult } from "./python";

const STATUS_WORDS: Record<string, string> = {
  pass: "passed", fail: "failed", error: "error", "not-attempted": "not attempted", "not-run": "not run",
};

export interface ChecksList {
  show(result: CheckResult): void;
  /** Show or hold back each check's fix again (after a hint was opened, say). */
  refreshFixes(): void;
}

function code(text: string): HTMLElement {
  const element = document.createElement("code");
  element.textContent = text;
  return element;
}

/** A check's words, their `backticked` parts as code, as the checks write them (an odd
 *  backtick, say in a quoted string, leaves the text as it is). */
function appendWithCode(parent: HTMLElement, text: string): void {
  const parts = text.split("`");
  if (parts.length % 2 === 0) {
    parent.append(text);
    return;
  }
  parts.forEach((part, index) => parent.append(index % 2 ? code(part) : part));
}

/** `fixShown(name)`: whether that check's fix may be shown now. */
export function checksList(list: HTMLElement, summary: HTMLElement, fixShown: (check: string) => boolean): ChecksList {
  let fixes: Array<{ check: string; element: HTMLElement }> = [];

  /** "What to write:" and the fix: a literal line as code, or a sentence whose `backticked`
   *  parts are code (as the checks write it); several lines as a block. */
  function fixElement(fix: string): HTMLElement {
    const box = document.createElement("div");
    box.className = "check-fix";
    box.dataset.checkFix = "";
    const label = document.createElement("p");
    const heading = document.createElement("strong");
    heading.textContent = "What to write:";
    label.append(heading, " ");
    box.append(label);
    if (fix.includes("\n") && !fix.includes("`")) {
      const pre = document.createElement("pre");
      pre.append(code(fix));
      box.append(pre);
    } else if (fix.includes("`")) {
      appendWithCode(label, fix);
    } else {
      label.append(code(fix));
    }
    return box;
  }

  function item(check: CheckItem, open: boolean): HTMLLIElement {
    const li = document.createElement("li");
    li.className = "check";
    li.dataset.checkStatus = check.status;
    const details = document.createElement("details");
    const title = document.createElement("summary");
    const badge = document.createElement("span");
    badge.className = "check-status";
    badge.textContent = STATUS_WORDS[check.status] ?? check.status;
    title.append(badge, ` ${check.name}`);
    const message = document.createElement("p");
    message.className = "check-message";
    appendWithCode(message, check.message || (check.status === "pass" ? "Passed." : ""));
    details.append(title, message);
    const failed = check.status === "fail" || check.status === "error";
    if (failed && check.fix) {
      const fix = fixElement(check.fix);
      details.append(fix);
      fixes.push({ check: check.name, element: fix });
    }
    details.open = open;
    li.append(details);
    return li;
  }

  function summaryText(result: CheckResult, passed: number): string {
    if (result.status === "pass") return `${passed === 1 ? "The one check passes" : `All ${passed} checks pass`}. These lines are yours now.`;
    if (result.status === "not-attempted") return "Not attempted yet: this is still the starter. Fill in the TODOs first.";
    return `${passed} / ${result.checks.length} checks pass.`;
  }

  const refreshFixes = (): void => {
    for (const { check, element } of fixes) element.hidden = !fixShown(check);
  };

  return {
    show(result: CheckResult): void {
      fixes = [];
      const firstProblem = result.checks.findIndex((check) => check.status !== "pass");
      list.replaceChildren(...result.checks.map((check, index) => item(check, index === firstProblem)));
      refreshFixes();
      const passed = result.checks.filter((check) => check.status === "pass").length;
      summary.textContent = summaryText(result, passed);
      summary.dataset.status = result.status;
    },
    refreshFixes,
  };
}
