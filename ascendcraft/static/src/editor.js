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
//
// Rebuild the bundle after editing this file: `npm ci && npm run build` in this folder.
import { EditorView, basicSetup } from "codemirror";
import { Compartment, EditorState, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import { Decoration } from "@codemirror/view";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
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
});

function render({ model, el }) {
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

  model.on("change:value", onValue);
  model.on("change:marks", onMarks);
  model.on("change:language", onLanguage);
  model.on("change:read_only", onReadOnly);
  model.on("change:height", onHeight);
  model.on("change:wrap", onWrap);
  model.on("change:name", onName);
  onHeight();
  applyMarks();

  return () => {
    model.off("change:value", onValue);
    model.off("change:marks", onMarks);
    model.off("change:language", onLanguage);
    model.off("change:read_only", onReadOnly);
    model.off("change:height", onHeight);
    model.off("change:wrap", onWrap);
    model.off("change:name", onName);
    view.destroy();
  };
}

export default { render };
