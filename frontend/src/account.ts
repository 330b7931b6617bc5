// Who is signed in, for a page that is the same for everyone. The server renders every page of
// the course once for all learners (so the service worker can keep it for offline use, and a
// signed-in learner's page costs the server what an anonymous one does); the header's account
// part, and the body's data-account, data-learner-seed and data-progress-api that events.ts,
// sync.ts and the quiz shuffle read, are filled in here from /api/account/.
//
// The last answer is kept in localStorage and applied at once, before the page paints and before
// anything reads the body's attributes: a reload shows the right header without a flash, and a
// page opened offline still knows whose progress and events it holds. The server's answer then
// confirms or corrects it (and brings the messages waiting for this browser: "You have signed
// in", …), on every page load and when the connection comes back.
import { csrfToken } from "./csrf";

export interface Account {
  signedIn: boolean;
  account?: string;
  username?: string;
  name?: string;
  learnerSeed?: string;
  teach?: boolean;
  links: { signIn: string; account: string; signOut: string; progress: string; teach: string };
}

interface Answer extends Account { messages?: string[] }

const KEPT = "linebyline:account";

function kept(): Account | null {
  try {
    const found = JSON.parse(localStorage.getItem(KEPT) ?? "null") as Account | null;
    return found && typeof found === "object" && typeof found.signedIn === "boolean" && found.links ? found : null;
  } catch {
    return null;
  }
}

function keep(account: Account): void {
  try { localStorage.setItem(KEPT, JSON.stringify(account)); } catch { /* asked again next page */ }
}

/** The same account: who it is and what the header shows for them. */
function same(a: Account | null, b: Account | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function setData(name: "account" | "learnerSeed" | "progressApi", value: string | undefined): void {
  if (value) document.body.dataset[name] = value;
  else delete document.body.dataset[name];
}

function signOutForm(account: Account): HTMLFormElement {
  const form = document.createElement("form");
  form.method = "post";
  form.action = account.links.signOut;
  form.dataset.signOut = "";
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "link-button";
  button.textContent = "Sign out";
  form.append(token, button);
  // Capture: before sync.ts's listener, which sends what is not synced yet and then submits.
  form.addEventListener("submit", (event) => {
    if (!navigator.onLine) {
      event.preventDefault();
      event.stopImmediatePropagation();
      const status = document.querySelector<HTMLElement>("[data-sync-status]");
      if (status) status.textContent = "You are offline: sign out once you are back online.";
      return;
    }
    token.value = csrfToken(); // read now: signing in gave this browser a new one
    keep({ signedIn: false, links: account.links }); // the next page starts signed out
  }, { capture: true });
  return form;
}

function fillHeader(account: Account): void {
  const nav = document.querySelector<HTMLElement>("[data-account-nav]");
  const teach = document.querySelector<HTMLElement>("[data-teach-link]");
  if (teach) teach.hidden = !account.teach;
  if (!nav) return;
  if (!account.signedIn) {
    const link = document.createElement("a");
    link.href = account.links.signIn;
    link.dataset.signIn = "";
    link.textContent = "Sign in";
    nav.replaceChildren(link);
    return;
  }
  const name = document.createElement("a");
  name.href = account.links.account;
  name.dataset.signedInAs = "";
  name.title = "Your account";
  name.textContent = account.name || account.username || "";
  const status = document.createElement("span");
  status.className = "sync-status";
  status.dataset.syncStatus = "";
  status.setAttribute("role", "status");
  nav.replaceChildren(name, status, signOutForm(account));
}

function apply(account: Account): void {
  setData("account", account.signedIn ? account.account : undefined);
  setData("learnerSeed", account.signedIn ? account.learnerSeed : undefined);
  setData("progressApi", account.signedIn ? account.links.progress : undefined);
  fillHeader(account);
}

function showMessages(messages: string[]): void {
  if (!messages.length) return;
  const box = document.createElement("div");
  box.className = "messages";
  box.setAttribute("role", "status");
  for (const text of messages) {
    const line = document.createElement("p");
    line.textContent = text;
    box.append(line);
  }
  document.querySelector("main")?.prepend(box);
}

let current: Account | null = null;

/** Apply the account this browser last heard of, at once. Returns it (null: never asked yet). */
export function showKnownAccount(): Account | null {
  current = kept();
  if (current) apply(current);
  return current;
}

async function ask(): Promise<Answer | null> {
  const url = document.body.dataset.accountApi;
  if (!url || !navigator.onLine) return null;
  try {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    return (await response.json()) as Answer;
  } catch {
    return null; // offline after all, or the server is down: the kept account stands
  }
}

/** Ask the server who is signed in; apply and keep the answer. Resolves with the account the
 *  page now shows (the kept one when the server cannot be asked), and `changed` when that
 *  differs from what the page showed before. */
export async function confirmAccount(): Promise<{ account: Account | null; changed: boolean }> {
  const answer = await ask();
  if (!answer) return { account: current, changed: false };
  const { messages = [], ...account } = answer;
  showMessages(messages);
  const changed = !same(current, account);
  current = account;
  keep(account);
  if (changed) apply(account);
  return { account, changed };
}

/** Each time the connection comes back, ask again (a session may have ended meanwhile). */
export function confirmWhenOnline(then: (account: Account | null, changed: boolean) => void): void {
  window.addEventListener("online", () => {
    void confirmAccount().then(({ account, changed }) => then(account, changed));
  });
}
