// The code editor: CodeMirror 6 with Python highlighting, line numbers, undo, Tab to indent
// and Ctrl/Cmd+Enter to run. Only the extensions we use are bundled, to keep the page light:
// the small stream-based Python mode instead of the full Lezer grammar (about 25 KB less).
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, HighlightStyle, indentOnInput, indentUnit, StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { python } from "@codemirror/legacy-modes/mode/python";
import { EditorSelection, EditorState, StateEffect, StateField } from "@codemirror/state";
import { tags } from "@lezer/highlight";
import { Decoration, type DecorationSet, drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";

// Token colours come from CSS variables, so light and dark themes both keep 4.5:1 contrast.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword], color: "var(--code-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--code-string)" },
  { tag: tags.comment, color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--code-number)" },
  { tag: [tags.definition(tags.variableName), tags.definition(tags.className)], color: "var(--code-definition)" },
  { tag: [tags.self, tags.standard(tags.variableName)], color: "var(--code-builtin)" },
]);

// One line marked from outside, without moving the cursor or the focus: the Graph tab's step
// through backward() marks the line of the learner's that made the step's write.
const markLine = StateEffect.define<number | null>();
const markedLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(markLine)) continue;
      const line = effect.value;
      next = line === null || line < 1 || line > transaction.state.doc.lines ? Decoration.none
        : Decoration.set([Decoration.line({ class: "cm-marked-line" }).range(transaction.state.doc.line(line).from)]);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export interface Editor {
  text(): string;
  setText(text: string): void;
  goToLine(line: number): void;
  /** Put the cursor at a character offset, scrolled into view, and focus the editor. */
  goToOffset(offset: number): void;
  /** Mark one line (null: none), scrolled into the editor's own view; the page and the focus stay. */
  markLine(line: number | null): void;
  focus(): void;
}

export function createEditor(parent: HTMLElement, options: {
  text: string; label: string; onChange: (text: string) => void; onRun: () => void;
  /** The id of the element that tells how to use and leave the editor (its accessible description). */
  describedBy?: string;
  /** The longest text the editor takes: a change (a paste, say) that would make it longer is
   *  refused, and onTooLong hears how long the text would have been. */
  maxLength?: number; onTooLong?: (length: number) => void;
}): Editor {
  const maxLength = options.maxLength ?? Infinity;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        markedLine,
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        syntaxHighlighting(highlight),
        StreamLanguage.define(python),
        keymap.of([
          { key: "Mod-Enter", preventDefault: true, run: () => { options.onRun(); return true; } },
          indentWithTab, // Escape, then Tab, moves focus out of the editor
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        EditorView.contentAttributes.of({
          "aria-label": options.label, ...(options.describedBy ? { "aria-describedby": options.describedBy } : {}),
        }),
        EditorState.transactionFilter.of((transaction) => {
          if (!transaction.docChanged || transaction.newDoc.length <= maxLength) return transaction;
          if (transaction.newDoc.length <= transaction.startState.doc.length) return transaction; // shrinking is always fine
          options.onTooLong?.(transaction.newDoc.length);
          return [];
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    setText: (text: string) => {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    goToLine: (line: number) => {
      const target = view.state.doc.line(Math.max(1, Math.min(line, view.state.doc.lines)));
      view.dispatch({
        selection: EditorSelection.range(target.from, target.to),
        effects: EditorView.scrollIntoView(target.from, { y: "center" }),
      });
      view.focus();
    },
    markLine: (line: number | null) => {
      view.dispatch({ effects: markLine.of(line) });
      if (line === null || line < 1 || line > view.state.doc.lines) return;
      // Only the editor's own scroller moves (scrollIntoView would move the page too, away from
      // the drawing the learner is stepping through).
      const block = view.lineBlockAt(view.state.doc.line(line).from);
      const scroller = view.scrollDOM;
      if (block.top < scroller.scrollTop || block.bottom > scroller.scrollTop + scroller.clientHeight) {
        scroller.scrollTop = block.top - scroller.clientHeight / 2;
      }
    },
    goToOffset: (offset: number) => {
      const at = Math.max(0, Math.min(offset, view.state.doc.length));
      view.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: "center" }) });
      view.focus();
    },
    focus: () => view.focus(),
  };
}
