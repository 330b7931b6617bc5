// Finding the page's parts: a missing one is a bug in the template, said at once by name.

/** The element `selector` finds under `root`; throws when there is none. */
export function $(root: ParentNode, selector: string): HTMLElement {
  const element = root.querySelector<HTMLElement>(selector);
  if (!element) throw new Error(`missing ${selector}`);
  return element;
}
