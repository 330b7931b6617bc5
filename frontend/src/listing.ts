// A program listing (the lesson's Unlocked part, a module review, the program page) links each
// line to the lesson that teaches it: a hundred or more links. As tab stops they would stand
// between the learner and the rest of the page, so the listing is one stop (a roving tabindex):
// Tab enters it and leaves it, the arrow keys move from line to line, Enter opens a line's lesson.

const JUMP = 10; // lines moved by Page Up / Page Down

export function setUpListing(list: HTMLElement): void {
  const links = [...list.querySelectorAll<HTMLAnchorElement>("li a")];
  if (links.length === 0) return;
  // The stop starts on this lesson's first line, where the listing is scrolled to, if it has one.
  let current = list.querySelector<HTMLAnchorElement>("li.this a") ?? links[0];
  for (const link of links) link.tabIndex = link === current ? 0 : -1;

  const moveTo = (link: HTMLAnchorElement): void => {
    current.tabIndex = -1;
    current = link;
    current.tabIndex = 0;
    current.focus();
  };

  list.addEventListener("focusin", (event) => {
    const link = event.target;
    if (link instanceof HTMLAnchorElement && link !== current && links.includes(link)) {
      current.tabIndex = -1;
      current = link;
      current.tabIndex = 0;
    }
  });

  list.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const index = links.indexOf(event.target as HTMLAnchorElement);
    if (index < 0) return;
    const last = links.length - 1;
    const target = {
      ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: last, PageDown: index + JUMP, PageUp: index - JUMP,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    moveTo(links[Math.max(0, Math.min(last, target))]);
  });
}
