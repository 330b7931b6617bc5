// A button that cannot be used for a moment (Run while code runs, Train while training) is marked
// aria-disabled, never `disabled`: a focused button that becomes disabled drops the keyboard focus
// to <body>, and the learner has to find their place again. An aria-disabled button keeps its
// focus, screen readers say it is unavailable, and a guard swallows its clicks (and the Enter that
// submits a form through it) before the button's own listeners hear them.

const guarded = new WeakSet<HTMLElement>();

function swallowWhenUnusable(event: Event): void {
  const button = event.currentTarget as HTMLElement;
  if (button.getAttribute("aria-disabled") !== "true") return;
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** Let `button` be used, or not, without ever taking its focus away. */
export function setUsable(button: HTMLElement, usable: boolean): void {
  if (!guarded.has(button)) {
    // A capture listener on the button runs before every bubbling listener on it.
    button.addEventListener("click", swallowWhenUnusable, { capture: true });
    guarded.add(button);
  }
  if (button instanceof HTMLButtonElement) button.disabled = false;
  button.setAttribute("aria-disabled", String(!usable));
}

export function isUsable(button: HTMLElement): boolean {
  return button.getAttribute("aria-disabled") !== "true";
}
