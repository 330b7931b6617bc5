// Deleting an account clears what the browser keeps of it, as signing out does: its progress and
// drafts, and the learning events still waiting to be sent. The delete form notes which account
// is being deleted (in sessionStorage) as it is sent; the next page clears that account's data if
// it is no longer signed in (the deletion went through), or drops the note if it still is (say,
// the password was wrong).
import { forgetEvents } from "./events";
import type { Progress } from "./progress";

const NOTE = "linebyline-deleting-account";

export function watchAccountDeletion(progress: Progress): void {
  const account = document.body.dataset.account ?? "";
  let deleting: string | null = null;
  try { deleting = sessionStorage.getItem(NOTE); } catch { /* storage refused: nothing noted */ }
  if (deleting) {
    sessionStorage.removeItem(NOTE);
    if (deleting !== account) {
      progress.forgetAccount(deleting);
      forgetEvents(progress.course.slug, deleting);
    }
  }
  const form = document.querySelector<HTMLFormElement>("form[data-delete-account]");
  if (form && account) {
    form.addEventListener("submit", () => {
      try { sessionStorage.setItem(NOTE, account); } catch { /* nothing to do without storage */ }
    });
  }
}
