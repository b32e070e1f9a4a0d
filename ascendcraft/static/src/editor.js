// The code editor of the AscendCraft workbench: CodeMirror 6 as an anywidget ES module.
//
// Synced traits (see ascendcraft.workbench.CodeEditor):
//   value      the text (typing updates it, Python updates the editor)
//   language   "python" (the DSL), "cpp" (AscendC snapshots) or "text"
//   marks      {"<1-based line>": "message"}: lines marked as errors (gutter dot, red line, tooltip)
//   read_only  bool
//   height     CSS height of the editor, e.g. "420px"
//   wrap       bool: wrap long lines instead of scrolling sideways
//   name       written to the element's data-name attribute (browser tests find editors by it)
//   lines      {"<1-based line>": "css class"}: extra line colours (ac-nav-line: a navigation target,
//              ac-hand-line: a hand-edited line)
//   reveal     {"line": n, "seq": k}: scroll line n into view (a new seq scrolls again to the same line)
// A click on a line sends {event: "line", line: n} to Python (the workbench's navigation).
//
// The same bundle renders two more widgets, chosen by the `kind` trait (see ascendcraft.wb_views):
//   kind "diff"  a read-only diff of two files (CodeMirror's merge view, side by side or unified)
//   kind "html"  an HTML pane whose [data-goto] elements send {event: "goto", ...} when clicked
//
// Rebuild the bundle after editing this file: `npm ci && npm run build` in this folder.
import { EditorView, basicSetup } from "codemirror";
import { Compartment, EditorState, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import { Decoration } from "@codemirror/view";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { getSearchQuery, openSearchPanel, searchPanelOpen, setSearchQuery } from "@codemirror/search";
import { MergeView, unifiedMergeView, uncollapseUnchanged } from "@codemirror/merge";
import { cpp } from "@codemirror/lang-cpp";
import { python } from "@codemirror/lang-python";

const LANGUAGES = { cpp: () => cpp(), python: () => python(), text: () => [] };

function languageExtension(name) {
  return (LANGUAGES[name] || LANGUAGES.text)();
}

// Marked (error) lines as a line decoration, replaced wholesale whenever `marks` changes.
const setMarkedLines = StateEffect.define();
const errorLine = Decoration.line({ class: "ac-error-line" });

const markedLines = StateField.define({
  create: () => Decoration.none,
  update(decorations, tr) {
    for (const effect of tr.effects) if (effect.is(setMarkedLines)) return effect.value;
    return decorations.map(tr.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

// Coloured lines (`lines` trait): a line decoration per line, replaced wholesale.
const setLineClasses = StateEffect.define();
const lineClasses = StateField.define({
  create: () => Decoration.none,
  update(decorations, tr) {
    for (const effect of tr.effects) if (effect.is(setLineClasses)) return effect.value;
    return decorations.map(tr.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

function lineClassEffect(view, classes) {
  const doc = view.state.doc;
  const builder = new RangeSetBuilder();
  const lines = Object.keys(classes || {}).map(Number).filter((n) => Number.isInteger(n) && n >= 1 && n <= doc.lines);
  for (const n of lines.sort((a, b) => a - b)) {
    const line = doc.line(n);
    builder.add(line.from, line.from, Decoration.line({ class: String(classes[n]) }));
  }
  return setLineClasses.of(builder.finish());
}

// Scroll line n of `view` into the middle of its scroller (opening a collapsed stretch of a diff first).
function revealLine(view, n) {
  if (!Number.isInteger(n) || n < 1 || n > view.state.doc.lines) return;
  const pos = view.state.doc.line(n).from;
  view.dispatch({ effects: [uncollapseUnchanged.of(pos)] });
  view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: "center" }) });
}

// A click on a line of `view` goes to Python as {event: "line", line, side}.
function clickReporter(model, side) {
  return EditorView.domEventHandlers({
    mouseup(event, view) {
      if (event.button !== 0) return false;
      const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
      if (pos == null) return false;
      model.send({ event: "line", line: view.state.doc.lineAt(pos).number, side });
      return false;
    },
  });
}

function markedLineNumbers(marks, doc) {
  return Object.keys(marks || {})
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= doc.lines)
    .sort((a, b) => a - b);
}

function markEffects(view, marks) {
  const doc = view.state.doc;
  const lines = markedLineNumbers(marks, doc);
  const builder = new RangeSetBuilder();
  const diagnostics = [];
  for (const n of lines) {
    const line = doc.line(n);
    builder.add(line.from, line.from, errorLine);
    diagnostics.push({ from: line.from, to: line.to, severity: "error", message: String(marks[n]) });
  }
  const lint = setDiagnostics(view.state, diagnostics);
  return { effects: [setMarkedLines.of(builder.finish()), ...(lint.effects ? [].concat(lint.effects) : [])] };
}

// Scroll the editor (only the editor, never the page) so that the first marked line is visible.
function revealFirstMark(view, marks) {
  const lines = markedLineNumbers(marks, view.state.doc);
  if (!lines.length) return;
  const pos = view.state.doc.line(lines[0]).from;
  view.requestMeasure({
    read: (v) => v.lineBlockAt(pos),
    write: (block, v) => {
      const scroller = v.scrollDOM;
      const visible = block.top >= scroller.scrollTop && block.bottom <= scroller.scrollTop + scroller.clientHeight;
      if (!visible) scroller.scrollTop = Math.max(0, block.top - scroller.clientHeight / 2);
    },
  });
}

const theme = EditorView.theme({
  "&": { fontSize: "12px", border: "1px solid #d0d7de", borderRadius: "4px", backgroundColor: "#ffffff" },
  "&.cm-focused": { outline: "2px solid #0969da33" },
  ".cm-scroller": { overflow: "auto", fontFamily: "var(--jp-code-font-family, Menlo, Consolas, 'DejaVu Sans Mono', monospace)", lineHeight: "1.45" },
  ".cm-gutters": { backgroundColor: "#f6f8fa", color: "#8c959f", borderRight: "1px solid #d0d7de" },
  ".ac-error-line": { backgroundColor: "#ffebe9" },
  ".ac-nav-line": { backgroundColor: "#fff1a8 !important", boxShadow: "inset 3px 0 #d4a72c" },
  ".ac-hand-line": { backgroundColor: "#f3e8ff !important", boxShadow: "inset 3px 0 #8250df" },
});

function renderEditor({ model, el }) {
  const language = new Compartment();
  const readOnly = new Compartment();
  const wrapping = new Compartment();
  const wrapExtension = () => (model.get("wrap") ? EditorView.lineWrapping : []);
  el.classList.add("ac-editor");
  el.dataset.name = model.get("name") || "";

  const view = new EditorView({
    parent: el,
    state: EditorState.create({
      doc: model.get("value"),
      extensions: [
        basicSetup,
        lintGutter(),
        markedLines,
        lineClasses,
        clickReporter(model, ""),
        theme,
        wrapping.of(wrapExtension()),
        language.of(languageExtension(model.get("language"))),
        readOnly.of(EditorState.readOnly.of(!!model.get("read_only"))),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          model.set("value", update.state.doc.toString());
          model.save_changes();
        }),
      ],
    }),
  });

  const applyMarks = () => {
    view.dispatch(markEffects(view, model.get("marks")));
    revealFirstMark(view, model.get("marks"));
  };
  const onValue = () => {
    const text = model.get("value");
    if (text !== view.state.doc.toString()) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      applyMarks();
    }
  };
  const onLanguage = () => view.dispatch({ effects: language.reconfigure(languageExtension(model.get("language"))) });
  const onReadOnly = () => view.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(!!model.get("read_only"))) });
  // an inline height: the page's own stylesheets (JupyterLab, Voila) cannot override it
  const onHeight = () => {
    view.dom.style.height = model.get("height") || "360px";
    view.requestMeasure();
  };
  const onWrap = () => view.dispatch({ effects: wrapping.reconfigure(wrapExtension()) });
  const onMarks = () => applyMarks();
  const onName = () => { el.dataset.name = model.get("name") || ""; };
  const onLines = () => view.dispatch({ effects: lineClassEffect(view, model.get("lines")) });
  const onReveal = () => revealLine(view, (model.get("reveal") || {}).line);

  model.on("change:value", onValue);
  model.on("change:marks", onMarks);
  model.on("change:language", onLanguage);
  model.on("change:read_only", onReadOnly);
  model.on("change:height", onHeight);
  model.on("change:wrap", onWrap);
  model.on("change:name", onName);
  model.on("change:lines", onLines);
  model.on("change:reveal", onReveal);
  onHeight();
  applyMarks();
  onLines();

  return () => {
    model.off("change:value", onValue);
    model.off("change:marks", onMarks);
    model.off("change:language", onLanguage);
    model.off("change:read_only", onReadOnly);
    model.off("change:height", onHeight);
    model.off("change:wrap", onWrap);
    model.off("change:name", onName);
    model.off("change:lines", onLines);
    model.off("change:reveal", onReveal);
    view.destroy();
  };
}

// ---- kind "diff": a read-only diff of two files -------------------------------------------------------
// Traits: original (the older file), value (the newer), language, layout_mode ("side" | "unified" | "auto": side by
// side when the pane is at least AUTO_SIDE_PX wide), collapse (show only the changed stretches, with `margin`
// lines around them), lines_a / lines_b (line colours of each side, as `lines`), reveal ({side, line, seq}),
// labels ([older, newer]), height, name.  Line numbers are the files' own on both sides.
const AUTO_SIDE_PX = 760;

function renderDiff({ model, el }) {
  el.classList.add("ac-diffview");
  const head = document.createElement("div");
  head.className = "ac-diff-head";
  head.style.cssText = "display:flex;gap:8px;align-items:center;font:12px var(--jp-ui-font-family, sans-serif);color:#57606a;margin:0 0 3px";
  const labels = document.createElement("span");
  labels.style.cssText = "flex:1 1 auto;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap";
  const search = document.createElement("button");
  search.textContent = "search";
  search.title = "search this diff (Ctrl-F inside it)";
  search.className = "ac-diff-search";
  search.style.cssText = "font:12px var(--jp-ui-font-family, sans-serif);padding:0 8px;height:22px;border:1px solid #d0d7de;border-radius:4px;background:#f6f8fa;cursor:pointer";
  head.append(labels, search);
  const body = document.createElement("div");
  el.append(head, body);
  let views = {}, destroy = () => {}, shown = null;

  const extensions = (side) => [
    basicSetup, theme, lineClasses, clickReporter(model, side),
    languageExtension(model.get("language")),
    EditorState.readOnly.of(true),
  ];
  const layoutFor = () => {
    const wanted = model.get("layout_mode") || "auto";
    if (wanted !== "auto") return wanted;
    const width = el.clientWidth;
    return width === 0 && shown ? shown : width >= AUTO_SIDE_PX || width === 0 ? "side" : "unified";
  };
  const collapse = () => (model.get("collapse") ? { margin: model.get("margin") || 3, minSize: 4 } : undefined);

  // A rebuild (a new layout, collapse, file) replaces the views: an open search panel is carried over to the new
  // view with its query, and keeps the keyboard focus it had, so a search is not lost by switching the layout.
  const openSearch = () => {
    for (const view of Object.values(views)) {
      if (searchPanelOpen(view.state)) return { query: getSearchQuery(view.state), focused: el.contains(document.activeElement) };
    }
    return null;
  };
  const reopenSearch = (carried) => {
    const view = views.b || views.a;
    if (!carried || !view) return;
    openSearchPanel(view);   // adds the search state to a new view (basicSetup has only the keys) and focuses its field
    view.dispatch({ effects: setSearchQuery.of(carried.query) });
    if (!carried.focused && el.contains(document.activeElement)) document.activeElement.blur();
  };

  const build = () => {
    const carried = openSearch();
    destroy();
    body.textContent = "";
    const layout = layoutFor();
    shown = layout;
    el.dataset.layout = layout;
    el.dataset.name = model.get("name") || "";
    const [older, newer] = model.get("labels") || ["", ""];
    labels.textContent = layout === "side" ? `${older}  │  ${newer}` : `${older} → ${newer}`;
    const height = model.get("height") || "420px";
    if (layout === "side") {
      const merge = new MergeView({
        a: { doc: model.get("original"), extensions: extensions("a") },
        b: { doc: model.get("value"), extensions: extensions("b") },
        parent: body, highlightChanges: true, gutter: true, collapseUnchanged: collapse(),
      });
      merge.dom.style.height = height;
      merge.dom.style.border = "1px solid #d0d7de";
      views = { a: merge.a, b: merge.b };
      destroy = () => merge.destroy();
    } else {
      const view = new EditorView({
        parent: body,
        state: EditorState.create({
          doc: model.get("value"),
          extensions: [...extensions("b"), unifiedMergeView({
            original: model.get("original"), mergeControls: false, highlightChanges: true, gutter: true,
            collapseUnchanged: collapse(),
          })],
        }),
      });
      view.dom.style.height = height;
      views = { b: view };
      destroy = () => view.destroy();
    }
    applyLines();
    reopenSearch(carried);
  };
  const applyLines = () => {
    for (const side of ["a", "b"]) {
      const view = views[side];
      if (view) view.dispatch({ effects: lineClassEffect(view, model.get(`lines_${side}`)) });
    }
  };
  const onReveal = () => {
    const { side, line } = model.get("reveal") || {};
    const view = views[side || "b"];
    if (view) revealLine(view, line);
  };
  search.addEventListener("click", () => {
    const view = views.b || views.a;
    if (view) { view.focus(); openSearchPanel(view); }
  });
  const resize = new ResizeObserver(() => { if ((model.get("layout_mode") || "auto") === "auto" && layoutFor() !== shown) build(); });
  resize.observe(el);
  const rebuild = ["original", "value", "language", "layout_mode", "collapse", "margin", "labels", "height", "name"];
  for (const name of rebuild) model.on(`change:${name}`, build);
  model.on("change:lines_a", applyLines);
  model.on("change:lines_b", applyLines);
  model.on("change:reveal", onReveal);
  build();
  return () => {
    resize.disconnect();
    for (const name of rebuild) model.off(`change:${name}`, build);
    model.off("change:lines_a", applyLines);
    model.off("change:lines_b", applyLines);
    model.off("change:reveal", onReveal);
    destroy();
  };
}

// ---- kind "html": an HTML pane with clickable [data-goto] elements ------------------------------------
function renderHtml({ model, el }) {
  el.classList.add("ac-htmlview");
  const show = () => {
    el.innerHTML = model.get("value") || "";
    el.dataset.name = model.get("name") || "";
  };
  const onClick = (event) => {
    const target = event.target.closest("[data-goto]");
    if (!target || !el.contains(target)) return;
    event.preventDefault();
    model.send({ event: "goto", goto: target.dataset.goto });
  };
  el.addEventListener("click", onClick);
  model.on("change:value", show);
  model.on("change:name", show);
  show();
  return () => {
    el.removeEventListener("click", onClick);
    model.off("change:value", show);
    model.off("change:name", show);
  };
}

function render(context) {
  const kind = context.model.get("kind");
  if (kind === "diff") return renderDiff(context);
  if (kind === "html") return renderHtml(context);
  return renderEditor(context);
}

export default { render };
