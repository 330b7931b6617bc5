// "Was this lesson clear?": sent with the CSRF token from its cookie and this browser's random id
// (who answers, for an anonymous learner); the server validates and rate-limits, per learner.
import { csrfToken } from "./csrf";
import { browserId } from "./events";
import { isUsable, setUsable } from "./usable";

export function setUpFeedback(form: HTMLFormElement): void {
  const result = form.querySelector<HTMLElement>("[data-feedback-result]")!;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!isUsable(button)) return; // still sending the last answer
    const data = new FormData(form);
    data.set("browser", browserId()); // each learner's latest answer counts once, and has limits of its own
    if (!data.get("clear")) {
      result.textContent = "Choose yes or no first.";
      return;
    }
    setUsable(button, false); // not `disabled`: that would drop the keyboard focus to <body>
    try {
      const response = await fetch(form.action, {
        method: "POST", body: data, credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      });
      if (response.ok) {
        result.textContent = "Thank you! Your answer helps us make the lesson clearer.";
        form.querySelector("textarea")!.value = "";
        return;
      }
      const body = await response.json().catch(() => ({}));
      const errors = Object.values((body as { errors?: Record<string, string[]> }).errors ?? {}).flat();
      result.textContent = errors.length ? errors.join(" ") : `Sorry, that did not work (error ${response.status}).`;
    } catch {
      result.textContent = "Sorry, that did not reach us. Check your connection and try again.";
    } finally {
      setUsable(button, true);
    }
  });
}
