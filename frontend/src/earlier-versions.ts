// Under the editor: earlier versions of the learner's code that the current draft was not made
// from (another device's edit that lost to a newer one, or the draft a restore replaced). Each
// can be looked at and restored; restoring keeps the draft it replaces as an earlier version.
import type { Editor } from "./editor";
import type { Progress, Version } from "./progress";

function where(version: Version, device: string): string {
  if (version.device === device) return "this browser";
  if (version.device.startsWith(`${device}~`)) return "this browser, before a restore";
  if (version.device.startsWith("cli-")) return "the terminal";
  if (version.device.startsWith("v1-")) return "an older progress file";
  return "another device";
}

function when(at: number): string {
  if (at === 0) return "at an unknown time";
  return new Date(at).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
}

export function setUpEarlierVersions(after: HTMLElement, number: string, progress: Progress, editor: Editor): void {
  const section = document.createElement("section");
  section.className = "earlier-versions";
  section.dataset.earlierVersions = "";
  section.setAttribute("aria-labelledby", "earlier-versions-h");
  section.hidden = true;
  after.after(section);
  let shown = "";

  function show(): void {
    const versions = progress.earlierVersions(number);
    const signature = JSON.stringify(versions.map((v) => [v.device, v.at]));
    if (signature === shown) return;
    shown = signature;
    section.hidden = versions.length === 0;
    const heading = document.createElement("h3");
    heading.id = "earlier-versions-h";
    heading.textContent = versions.length === 1 ? "An earlier version of your code" : `${versions.length} earlier versions of your code`;
    const intro = document.createElement("p");
    intro.textContent = "Your code for this lesson was also changed elsewhere. The newest change is in the editor; " +
      "nothing else was thrown away: look at an earlier version below and restore it if you want it back.";
    const items = versions.map((version) => {
      const item = document.createElement("details");
      item.dataset.earlierVersion = version.device;
      const summary = document.createElement("summary");
      const lines = version.draft.replace(/\n$/, "").split("\n").length;
      summary.textContent = `From ${where(version, progress.device)}, ${when(version.at)} (${lines} line${lines === 1 ? "" : "s"})`;
      const code = document.createElement("pre");
      code.tabIndex = 0;
      code.textContent = version.draft;
      const restore = document.createElement("button");
      restore.type = "button";
      restore.className = "secondary";
      restore.textContent = "Restore this version";
      restore.addEventListener("click", () => {
        progress.restore(number, version);
        editor.setText(version.draft);
        editor.focus();
      });
      item.append(summary, code, restore);
      return item;
    });
    section.replaceChildren(heading, intro, ...items);
  }
  show();
  progress.onChange(show);
}
