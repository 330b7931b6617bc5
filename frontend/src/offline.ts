// The page's side of offline use: register the service worker (sw.ts) once the page has settled,
// say what it downloads and how far it got, offer a new version's "Reload", and let the learner
// turn offline use off and on again (the course home). Also: forms that need the server say so
// offline instead of failing, and the "You are offline" page says which page needed it.
import { say } from "./live";

const OFF = "linebyline:offline"; // "off" once the learner turned offline use off
const PREFIX = "linebyline-offline-"; // sw.ts's caches
const SETTLE_MAX_MS = 60_000; // registration waits at most this long for the page's Python
const DONE_SHOWN_MS = 8_000;
const UPDATE_EVERY_MS = 30 * 60_000; // a page left open still hears of a new version

type Report =
  | { type: "offline-progress"; version: string; done: number; total: number }
  | { type: "offline-ready"; version: string; total: number }
  | { type: "offline-failed"; version: string; reason: string };

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function isOff(): boolean {
  try { return localStorage.getItem(OFF) === "off"; } catch { return false; }
}

function setOff(off: boolean): void {
  try {
    if (off) localStorage.setItem(OFF, "off");
    else localStorage.removeItem(OFF);
  } catch { /* storage refused: the choice lasts for this page */ }
}

// ---- What the page shows -------------------------------------------------------------------

/** A small bar at the bottom of the page, shown while something is worth saying. */
class Bar {
  private box: HTMLElement | null = null;
  private text!: HTMLElement;
  private meter!: HTMLProgressElement;
  private button!: HTMLButtonElement;
  private announce!: HTMLElement;
  private hideTimer: number | undefined;

  private made(): HTMLElement {
    if (this.box) return this.box;
    const box = document.createElement("aside");
    box.className = "offline-bar";
    box.dataset.offlineBar = "";
    box.setAttribute("aria-label", "Offline use");
    this.text = document.createElement("p");
    this.text.dataset.offlineBarText = "";
    this.meter = document.createElement("progress");
    this.meter.setAttribute("aria-label", "Downloaded for offline use");
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.className = "secondary";
    // Only the milestones are read aloud, not every step of the download.
    this.announce = document.createElement("p");
    this.announce.className = "visually-hidden";
    this.announce.setAttribute("role", "status");
    box.append(this.text, this.meter, this.button, this.announce);
    document.body.append(box);
    // The bar floats over the page's bottom: the page keeps room for it, so that no row of a
    // table or line of text stays hidden behind it, even scrolled to the end.
    new ResizeObserver(() => this.makeRoom()).observe(box);
    this.box = box;
    return box;
  }

  private makeRoom(): void {
    const box = this.box;
    document.body.style.paddingBottom = box && !box.hidden ? `calc(${box.offsetHeight}px + 2rem)` : "";
  }

  show(state: string, text: string, options: { meter?: [number, number]; button?: [string, () => void]; announce?: string; hideAfter?: number } = {}): void {
    const box = this.made();
    window.clearTimeout(this.hideTimer);
    box.hidden = false;
    box.dataset.state = state;
    this.text.textContent = text;
    this.meter.hidden = !options.meter;
    if (options.meter) { this.meter.max = options.meter[1]; this.meter.value = options.meter[0]; }
    this.button.hidden = !options.button;
    if (options.button) { this.button.textContent = options.button[0]; this.button.onclick = options.button[1]; }
    if (options.announce) say(this.announce, options.announce);
    if (options.hideAfter) this.hideTimer = window.setTimeout(() => this.hide(), options.hideAfter);
    this.makeRoom();
  }

  hide(): void {
    if (this.box) this.box.hidden = true;
    this.makeRoom();
  }
}

const bar = new Bar();

/** The course home's "Offline" section: the state in words, and the switch. */
function tools(text: string, button?: [string, () => void]): void {
  const state = document.querySelector<HTMLElement>("[data-offline-state]");
  const toggle = document.querySelector<HTMLButtonElement>("[data-offline-toggle]");
  if (state) state.textContent = text;
  if (!toggle) return;
  toggle.hidden = !button;
  if (button) { toggle.textContent = button[0]; toggle.onclick = button[1]; }
}

// ---- The service worker ----------------------------------------------------------------------

let registration: ServiceWorkerRegistration | null = null;
let reloading = false;

/** Resolves once the page is loaded and its Python (if any) is ready or has failed: downloading
 *  the course must not slow the learner's first run or check. */
function settled(): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const look = () => {
      const loading = document.querySelector('[data-python-status]:not([data-state="ready"]):not([data-state="failed"])');
      if (document.readyState === "complete" && (!loading || Date.now() - started > SETTLE_MAX_MS)) {
        if ("requestIdleCallback" in window) window.requestIdleCallback(() => resolve(), { timeout: 3000 });
        else resolve();
      } else {
        window.setTimeout(look, 500);
      }
    };
    look();
  });
}

function offerReload(waiting: ServiceWorker): void {
  bar.show("update", "A new version of the course is ready.", {
    button: ["Reload", () => {
      reloading = true;
      waiting.postMessage({ type: "skip-waiting" });
    }],
    announce: "A new version of the course is ready: reload to use it.",
  });
}

function isUpdate(): boolean {
  return !!registration?.active;
}

function heard(report: Report): void {
  if (report.type === "offline-progress") {
    if (isUpdate()) return; // a new version downloads in the background; "Reload" comes after
    const text = `Keeping the course in this browser for offline use: ${megabytes(report.done)} of ${megabytes(report.total)}.`;
    bar.show("saving", text, {
      meter: [report.done, report.total], button: ["Turn off", () => void turnOff()],
      announce: `Keeping the course in this browser for offline use: about ${megabytes(report.total)}.`,
    });
    tools(text, ["Turn offline use off", () => void turnOff()]);
  } else if (report.type === "offline-ready") {
    showReady(report.total, true);
  } else if (report.type === "offline-failed") {
    const text = `Keeping the course for offline use stopped (${report.reason}). It carries on at your next visit.`;
    bar.show("failed", text, { announce: text, hideAfter: DONE_SHOWN_MS * 2 });
    tools(text, ["Turn offline use off", () => void turnOff()]);
  }
}

function showReady(total: number, justNow: boolean): void {
  const text = `Ready: the whole course works offline in this browser (${megabytes(total)} kept).`;
  if (justNow) bar.show("ready", "The course works offline now.", { announce: text, hideAfter: DONE_SHOWN_MS });
  tools(text, ["Turn offline use off", () => void turnOff()]);
}

/** Ask the active worker how much it keeps. */
function askStatus(active: ServiceWorker): Promise<{ version: string; total: number }> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    active.postMessage({ type: "status" }, [channel.port2]);
  });
}

function watch(found: ServiceWorkerRegistration): void {
  registration = found;
  if (found.waiting && navigator.serviceWorker.controller) offerReload(found.waiting);
  found.addEventListener("updatefound", () => {
    const installing = found.installing;
    const update = !!found.active;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && update) offerReload(installing);
    });
  });
  if (found.active && !found.installing) void askStatus(found.active).then(({ total }) => showReady(total, false));
  window.setInterval(() => void found.update().catch(() => undefined), UPDATE_EVERY_MS);
  window.addEventListener("online", () => void found.update().catch(() => undefined));
}

async function register(): Promise<void> {
  const url = document.body.dataset.serviceWorker;
  if (!url || isOff()) return;
  try {
    // updateViaCache "none": the browser asks the server for /sw.js itself on every check.
    watch(await navigator.serviceWorker.register(url, { scope: "/", updateViaCache: "none" }));
  } catch (error) {
    tools(`This browser refused to keep the course for offline use (${(error as Error).message}).`);
  }
}

async function turnOff(): Promise<void> {
  setOff(true);
  bar.hide();
  for (const found of await navigator.serviceWorker.getRegistrations()) await found.unregister();
  for (const name of await caches.keys()) if (name.startsWith(PREFIX)) await caches.delete(name);
  registration = null;
  showOff();
}

function showOff(): void {
  tools("Offline use is off: this browser does not keep the course.", ["Turn offline use on", () => {
    setOff(false);
    tools("Offline use is on: starting…");
    void register();
  }]);
}

// ---- Forms and the "You are offline" page --------------------------------------------------

/** A form posted to the server, offline: say so beside it instead of the browser's error page. */
function holdFormsOffline(): void {
  document.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    if (navigator.onLine || form.method !== "post") return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const note = form.querySelector<HTMLElement>("[data-offline-note]") ?? document.createElement("p");
    note.className = "offline-note";
    note.dataset.offlineNote = "";
    note.setAttribute("role", "alert");
    form.append(note);
    note.textContent = "You are offline: this needs the server. Try again once you are back online.";
    window.addEventListener("online", () => note.remove(), { once: true });
  }, { capture: true });
}

const NEEDS_SERVER: Array<[RegExp, string]> = [
  [/^\/accounts\/(login|signup)\//, "Signing in needs the server."],
  [/^\/accounts\//, "Your account's pages need the server."],
  [/^\/(teach|classes)\//, "The teacher's pages need the server."],
  [/^\/admin\//, "The admin needs the server."],
];

function explainOfflinePage(): void {
  const page = document.querySelector<HTMLElement>("[data-offline-page]");
  if (!page) return;
  const what = page.querySelector<HTMLElement>("[data-offline-what]");
  const found = NEEDS_SERVER.find(([path]) => path.test(location.pathname));
  if (what && found) what.textContent = `${found[1]} This page opens once you are back online.`;
  page.querySelector("[data-action='retry']")?.addEventListener("click", () => location.reload());
  window.addEventListener("online", () => void reopenIfServerAnswers());
  page.dataset.listening = ""; // from here on, the network coming back reopens the page
}

/** After "online", how long to wait before each ask of the server: a network that has just come
 *  up often cannot reach anything for a moment (and a spurious event costs a few requests). */
const REOPEN_TRIES_MS = [0, 500, 1000, 2000, 4000];
let reopening = false;

/** Browsers say "online" when a network comes up, not when the server can be reached (and
 * Chromium says it spuriously too): reload only once the server answers, so the page neither
 * flickers nor cuts short the learner's own move to another page. */
async function reopenIfServerAnswers(): Promise<void> {
  if (reopening) return; // one round of asking at a time, however many events came
  reopening = true;
  try {
    for (const wait of REOPEN_TRIES_MS) {
      if (wait) await new Promise((resolve) => window.setTimeout(resolve, wait));
      try {
        await fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
      } catch {
        continue; // not yet, whatever the event said
      }
      location.reload();
      return;
    }
  } finally {
    reopening = false;
  }
}

export function setUpOffline(): void {
  holdFormsOffline();
  explainOfflinePage();
  if (!("serviceWorker" in navigator) || !("caches" in window)) {
    tools("This browser cannot keep the course for offline use.");
    return;
  }
  navigator.serviceWorker.addEventListener("message", (event) => heard(event.data as Report));
  navigator.serviceWorker.addEventListener("controllerchange", () => { if (reloading) location.reload(); });
  if (isOff()) { showOff(); return; }
  void settled().then(register);
}
