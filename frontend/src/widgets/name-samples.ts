// Explore widget "name-samples" (lessons 11.1 to 11.4): names a trained model invented, in
// columns side by side (temperatures, or the right way beside a classic mistake), each name
// marked by a tag ("in the data", "new") and a note. Every name comes from the lesson's own code
// (explore.compute). With `own` (11.2), the page's Python can draw the same columns from the
// learner's own trained weights, kept by My microgpt, with the same random numbers.

import { say } from "../live";
import { setUsable } from "../usable";
import { loadMyRun, type MyRun } from "../mine/my-runs";
import { h, pythonOfThePage, record, registerWidget, textOr, type Params } from "./kit";
import { choiceGroup, mistakeToggle } from "./shared/controls";
import "./name-samples.css";

interface Name { text: string; tag: string; note: string }
interface Column { heading: string; summary: string; names: Name[] }
interface View { label: string; caption: string; columns: Column[] }
interface Own { temperatures: number[]; count: number; steps: number; names: string }

const str = (value: unknown): string => (typeof value === "string" ? value : "");

function parseViews(raw: unknown): View[] {
  const views: View[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    const fields = record(item);
    const columns: Column[] = [];
    for (const rawColumn of Array.isArray(fields.columns) ? fields.columns : []) {
      const column = record(rawColumn);
      const names = (Array.isArray(column.names) ? column.names : []).map((rawName) => {
        const name = record(rawName);
        return { text: str(name.text), tag: str(name.tag), note: str(name.note) };
      });
      if (names.length) columns.push({ heading: str(column.heading), summary: str(column.summary), names });
    }
    if (typeof fields.label === "string" && columns.length) views.push({ label: fields.label, caption: str(fields.caption), columns });
  }
  return views;
}

function parseOwn(raw: unknown): Own | null {
  const own = record(raw);
  const temperatures = Array.isArray(own.temperatures) ? own.temperatures.filter((t): t is number => typeof t === "number" && t > 0) : [];
  if (!temperatures.length || typeof own.count !== "number") return null;
  return { temperatures, count: own.count, steps: Number(own.steps) || 0, names: str(own.names) };
}

function columnElement(column: Column, tags: Record<string, string>): HTMLElement {
  const list = h("ol", { class: "ns-names" }, ...column.names.map((name) => h("li", {
    class: name.tag ? `ns-name ns-tag-${name.tag}` : "ns-name", "data-tag": name.tag || false,
  }, h("span", { class: "ns-text" }, name.text || "(an empty name)"),
  name.tag && tags[name.tag] ? h("span", { class: "visually-hidden" }, ` (${tags[name.tag]})`) : null,
  name.note ? h("span", { class: "ns-note" }, name.note) : null)));
  return h("section", { class: "ns-column", "data-column": column.heading },
    h("h3", { class: "ns-heading" }, column.heading), list,
    column.summary ? h("p", { class: "ns-summary" }, column.summary) : null);
}

/** The Python that draws the columns from the learner's weights: the program up to its training,
 *  then the sampling lines of microgpt.py, each column from the same random state. */
function ownProgram(source: string, weights: number[], own: Own): string {
  const cut = source.search(/^# --- training/m);
  const model = cut > 0 ? source.slice(0, cut) : source;
  return `${model}
import json as _json
for _p, _w in zip(params, _json.loads(${JSON.stringify(JSON.stringify(weights))})):
    _p.data = _w
_start = random.getstate()
_columns = []
for temperature in ${JSON.stringify(own.temperatures)}:
    random.setstate(_start)
    _names = []
    for sample in range(${own.count}):
        keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
        token, name = BOS, []
        for pos in range(block_size):
            probs = softmax([logit / temperature for logit in gpt(token, pos, keys, values)])
            token = random.choices(range(vocab_size), weights=[p.data for p in probs])[0]
            if token == BOS:
                break
            name.append(chars[token])
        _names.append(''.join(name))
    _columns.append(_names)
print("COLUMNS " + _json.dumps(_columns))
`;
}

function describeRun(run: MyRun): string {
  const when = run.at ? new Date(run.at).toLocaleDateString("en", { year: "numeric", month: "long", day: "numeric" }) : "";
  return `your ${run.script}, trained ${run.steps.toLocaleString("en")} steps in My microgpt${when ? ` on ${when}` : ""}`;
}

function mountNameSamples(root: HTMLElement, params: Params): void {
  const data = record(params.data);
  const views = parseViews(data.views);
  const mistakeViews = parseViews(data.mistake_views);
  if (views.length === 0) {
    root.append(h("p", {}, "This widget has no names to show."));
    return;
  }
  const tags: Record<string, string> = {};
  for (const [key, label] of Object.entries(record(data.tags))) if (typeof label === "string") tags[key] = label;
  const mistakeText = mistakeViews.length === views.length ? textOr(params.mistake, null) : null;
  let index = 0;
  let mistaken = false;
  let ownViews: View[] | null = null; // the same columns drawn from the learner's weights

  const controls = h("div", { class: "kit-controls" });
  if (views.length > 1) {
    controls.append(choiceGroup({
      legend: textOr(params.view_label, "View"), hiddenLegend: true, name: "ns-view",
      choices: views.map((view) => ({ label: [" ", view.label] })),
      onPick: (i) => { index = i; render(); },
    }));
  }
  if (mistakeText) {
    const toggle = mistakeToggle(mistakeText, { name: "ns-mistake", className: "kit-push" });
    toggle.input.addEventListener("change", () => { mistaken = toggle.input.checked; render(); });
    controls.append(toggle.label);
  }
  const legend = Object.keys(tags).length
    ? h("ul", { class: "ns-legend" }, ...Object.entries(tags).map(([key, label]) => h("li", { class: `ns-tag-${key}` },
      h("span", { class: "ns-swatch", "aria-hidden": "true" }), label)))
    : null;
  const columns = h("div", { class: "kit-columns ns-columns", "data-columns": "" });
  const caption = h("p", { class: "kit-caption ns-caption", "aria-live": "polite" });
  const ownBox = h("div", { class: "ns-own", hidden: true });
  root.append(h("div", { class: "ns" }, controls.childNodes.length ? controls : null, legend, columns, caption, ownBox,
    typeof params.caption === "string" ? h("p", { class: "kit-caption" }, params.caption) : null));

  function render(): void {
    const view = (ownViews ?? (mistaken ? mistakeViews : views))[index] ?? views[index];
    columns.style.setProperty("--kit-column", view.columns.length > 3 ? "9rem" : "11rem");
    columns.replaceChildren(...view.columns.map((column) => columnElement(column, tags)));
    say(caption, view.caption);
  }
  render();

  const own = parseOwn(data.own);
  const scriptUrl = str(params.scriptUrl);
  if (params.own === true && own && scriptUrl) void offerOwn(own, scriptUrl);

  async function offerOwn(own: Own, url: string): Promise<void> {
    const run = await loadMyRun(str(params.script));
    ownBox.hidden = false;
    const status = h("p", { class: "ns-own-status", role: "status" });
    if (!run || !run.bundledNames || run.weights.length === 0) {
      ownBox.replaceChildren(h("p", {}, `These names come from microgpt's weights after its ${own.steps.toLocaleString("en")} steps on ${own.names}, trained by the course. `,
        "Train your own ", h("code", {}, str(params.script)), " in ", h("a", { href: "/my-microgpt/" }, "My microgpt"),
        " on the bundled names, and its weights can fill these columns here."));
      return;
    }
    const button = h("button", { type: "button", "data-own": "" }, "Draw them from your own weights");
    const back = h("button", { type: "button", class: "secondary", hidden: true }, "Back to the course's weights");
    ownBox.replaceChildren(h("p", {}, `Found ${describeRun(run)}.`), h("div", { class: "kit-controls" }, button, back), status);
    back.addEventListener("click", () => {
      ownViews = null;
      back.hidden = true;
      say(status, "Showing the course's trained weights again.");
      render();
    });
    button.addEventListener("click", async () => {
      setUsable(button, false);
      say(status, "Drawing the names from your weights in your browser's Python…");
      try {
        const drawn = await drawOwn(run, own, url);
        const base = views;
        ownViews = base.map((view) => ({
          label: view.label,
          caption: `The same random numbers, with ${describeRun(run)}.`,
          columns: view.columns.map((column, i) => ({
            heading: column.heading, summary: "",
            names: (drawn[i] ?? []).map((text) => ({ text, tag: "", note: "" })),
          })),
        }));
        back.hidden = false;
        const same = drawn.every((names, i) => names.join() === base[0].columns[i]?.names.map((n) => n.text).join());
        say(status, same
          ? "Your weights drew exactly the course's names: your microgpt trained to the very same numbers."
          : "Your weights drew these names: where they differ from the course's, your run's weights differ.");
        render();
      } catch (error) {
        say(status, `Your weights could not be used here: ${(error as Error).message}`);
      } finally {
        setUsable(button, true);
      }
    });
  }

  async function drawOwn(run: MyRun, own: Own, url: string): Promise<string[][]> {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the program could not be loaded (${response.status})`);
    const source = ownProgram(await response.text(), run.weights, own);
    const python = await pythonOfThePage();
    if (python.busy) throw new Error("Python is busy with your code in Build: wait for it, or press Stop there.");
    let printed = "";
    let errors = "";
    const result = await python.run(source, "own_weights.py", (chunk, stream) => {
      if (stream === "stderr") errors += chunk; else printed += chunk;
    }, { what: "drawing names from your weights", where: "in Explore" });
    if (result.status !== "ok") throw new Error(errors.trim().split("\n").pop() || "it stopped");
    const line = printed.split("\n").find((l) => l.startsWith("COLUMNS "));
    if (!line) throw new Error("no names came back");
    return JSON.parse(line.slice("COLUMNS ".length)) as string[][];
  }
}

registerWidget("name-samples", mountNameSamples);
