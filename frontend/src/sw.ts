// The service worker: keeps the whole course in this browser, so it works offline after the
// first visit. The server puts what to keep in front of this file (/sw.js, web/offline.py):
// every page of the course, the browser code, Pyodide, each lesson's checks, the scripts, the
// names. Hand-written rather than Workbox: its job is one list, kept per version, with progress
// told to the page in bytes; the list's URLs carry their version, so "did it change" is "is the
// URL new", which a few lines answer.
//
// - install: download the list into the cache of this version, a few files at a time, telling
//   every page how far it got; a file whose URL names its content is copied from an older
//   version's cache instead (a new lesson does not download Pyodide again). A failure fails the
//   install (the next visit tries again, keeping what was downloaded).
// - activate (at once the first time; for a new version once the page's "Reload" asks, or every
//   tab of the old one is closed): delete the older versions' caches.
// - fetch: a page of the course from the network, or from the cache when the network fails or
//   is slow; a kept file from the cache; a page that needs the server, offline, becomes "You are
//   offline". Nothing else is touched, and nothing is ever stored but the list.
/// <reference lib="webworker" />
export {}; // a module: its names stay its own

interface Entry { url: string; bytes: number; fixed: boolean }
interface Kept {
  version: string; pages: string[]; offlinePage: string; serverOnly: string[]; bytes: number; entries: Entry[];
}

const worker = self as unknown as ServiceWorkerGlobalScope & { LINEBYLINE_OFFLINE: Kept };
const kept = worker.LINEBYLINE_OFFLINE;
const PREFIX = "linebyline-offline-";
const CACHE = `${PREFIX}${kept.version}`;
const AT_ONCE = 3; // downloads at a time: the server renders pages for others too
const PAGE_WAIT_MS = 4000; // a page slower than this from the network comes from the cache
const REPORT_MS = 200;

const origin = worker.location.origin;
const keptUrls = new Set(kept.entries.map((entry) => new URL(entry.url, origin).href));
const pagePaths = new Set(kept.pages);

type Report =
  | { type: "offline-progress"; version: string; done: number; total: number }
  | { type: "offline-ready"; version: string; total: number }
  | { type: "offline-failed"; version: string; reason: string };

async function tell(report: Report): Promise<void> {
  for (const client of await worker.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    client.postMessage(report);
  }
}

/** A response the cache can keep and a navigation can use: a redirected one cannot. */
async function download(entry: Entry): Promise<Response> {
  // A fixed file may come from the HTTP cache (the page just loaded Pyodide); the rest is asked
  // anew (a 304 when it did not change).
  const response = await fetch(entry.url, { credentials: "same-origin", cache: entry.fixed ? "default" : "no-cache" });
  if (!response.ok) throw new Error(`${entry.url}: the server answered ${response.status}`);
  if (response.redirected) throw new Error(`${entry.url}: the server answered with a redirect`);
  return response;
}

async function fromOlderVersion(url: string): Promise<Response | undefined> {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const found = await (await caches.open(name)).match(url, { ignoreVary: true });
    if (found) return found;
  }
  return undefined;
}

async function keepEverything(): Promise<void> {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  const waiting = kept.entries.filter((entry) => !have.has(new URL(entry.url, origin).href));
  let done = kept.bytes - waiting.reduce((sum, entry) => sum + entry.bytes, 0);
  let told = 0;
  const progress = (force = false) => {
    if (!force && Date.now() - told < REPORT_MS) return;
    told = Date.now();
    void tell({ type: "offline-progress", version: kept.version, done, total: kept.bytes });
  };
  progress(true);
  const next = async (): Promise<void> => {
    for (let entry = waiting.shift(); entry; entry = waiting.shift()) {
      const response = (entry.fixed && (await fromOlderVersion(entry.url))) || (await download(entry));
      await cache.put(entry.url, response);
      done += entry.bytes;
      progress();
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, next));
  progress(true);
}

worker.addEventListener("install", (event) => {
  event.waitUntil(keepEverything().catch(async (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    await tell({ type: "offline-failed", version: kept.version, reason });
    throw error; // the install fails; the next visit tries again, keeping what was downloaded
  }));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await worker.clients.claim();
    await tell({ type: "offline-ready", version: kept.version, total: kept.bytes });
  })());
});

worker.addEventListener("message", (event) => {
  const asked = (event.data ?? {}) as { type?: string };
  if (asked.type === "skip-waiting") void worker.skipWaiting();
  else if (asked.type === "status") event.ports[0]?.postMessage({ version: kept.version, total: kept.bytes });
});

async function fromCache(url: string): Promise<Response | undefined> {
  return (await caches.open(CACHE)).match(url, { ignoreVary: true });
}

/** "You are offline", as the page /offline/ says it, for a page that needs the server. */
async function offlineAnswer(): Promise<Response> {
  const page = await fromCache(kept.offlinePage);
  if (!page) return new Response("You are offline.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const headers = new Headers(page.headers);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return new Response(page.body, { status: 503, statusText: "Offline", headers });
}

/** A page of the course: the network's answer when it comes in time, else the kept copy. */
async function coursePage(request: Request, path: string): Promise<Response> {
  const network = fetch(request);
  const copy = await fromCache(origin + path);
  if (!copy) return network.catch(offlineAnswer);
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), PAGE_WAIT_MS));
  try {
    const answer = await Promise.race([network, late]);
    if (answer && answer.status < 500) return answer;
  } catch { /* offline */ }
  network.catch(() => undefined);
  return copy;
}

function needsServer(path: string): boolean {
  return kept.serverOnly.some((prefix) => path === prefix || path.startsWith(prefix));
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== origin || request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(pagePaths.has(url.pathname) && !needsServer(url.pathname)
      ? coursePage(request, url.pathname)
      : fetch(request).catch(offlineAnswer));
    return;
  }
  if (keptUrls.has(url.href) && !needsServer(url.pathname)) {
    event.respondWith(fromCache(url.href).then((found) => found ?? fetch(request)));
  }
});
