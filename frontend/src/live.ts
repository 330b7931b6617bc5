// Live regions (aria-live, role="status") are read aloud each time they are written, even with
// the same words: a widget that redraws on every slider move or animation frame must write them
// only when what they say changes.

/** Set a live region's text, only if it is different. */
export function say(region: HTMLElement, text: string): void {
  if (region.textContent !== text) region.textContent = text;
}

/** Replace a live region's content, only if the new content is different (compared on copies:
 *  the children may be nodes the region already holds). */
export function sayWith(region: HTMLElement, ...children: Array<Node | string>): void {
  const next = document.createElement(region.tagName);
  next.append(...children.map((child) => (typeof child === "string" ? child : child.cloneNode(true))));
  if (next.innerHTML !== region.innerHTML) region.replaceChildren(...children);
}
