// The chain graph panel's page, apart from VS Code so node's test runner
// can read it: the server's SVG shown as an image, which runs no script
// whatever it holds, under a policy that loads nothing else. The page runs
// no script either: it is drawn at its own size (100 %, where a 30-node
// chain's text is as large as the editor's) in a scrolling viewport, which
// the mouse wheel, the scroll bars and, once focused, the arrow and page
// keys pan; zoom is a group of radio buttons (click, or Tab to them and
// use the arrow keys) that CSS reads.

export interface GraphView {
  title: string;
  // svg is the last drawing that came back, kept while the buffer does
  // not draw (invalid JSON mid-typing, the chain gone, no helper).
  svg?: string;
  // error is why the latest request did not draw.
  error?: string;
}

// sameView says whether two views make the same page.
export function sameView(a: GraphView, b: GraphView): boolean {
  return a.title === b.title && a.svg === b.svg && a.error === b.error;
}

// isSVG says whether text is an SVG document as Graphviz writes one: an
// XML declaration, comments and a doctype at most before the <svg> root.
export function isSVG(text: string): boolean {
  const prolog = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[^\]]*\])?\s*>)\s*)*<svg[\s>]/;
  return prolog.test(text) && /<\/svg>\s*$/.test(text);
}

// zooms are the zoom levels offered, in percent; 0 fits the panel's width.
export const zooms = [0, 50, 75, 100, 150, 200, 300];

// naturalWidth is the SVG's width in CSS pixels (Graphviz gives points),
// or undefined when its root names none.
export function naturalWidth(svg: string): number | undefined {
  const m = /<svg\b[^>]*?\swidth="([0-9.]+)(pt|px)?"/.exec(svg);
  if (!m) {
    return undefined;
  }
  const n = parseFloat(m[1]);
  return Math.round(m[2] === "pt" ? (n * 4) / 3 : n);
}

function zoomControls(): string {
  return zooms
    .map((z) => {
      const id = z === 0 ? "zfit" : `z${z}`;
      const label = z === 0 ? "Fit" : `${z} %`;
      return `<input type="radio" name="zoom" id="${id}"${z === 100 ? " checked" : ""}><label for="${id}" class="zoom">${label}</label>`;
    })
    .join("");
}

function zoomStyles(): string {
  return zooms
    .map((z) =>
      z === 0
        ? "#zfit:checked ~ .viewport img.chain { width: auto; max-width: 100%; }"
        : `#z${z}:checked ~ .viewport img.chain { width: calc(var(--w) * ${z / 100}); }`,
    )
    .join("\n");
}

function escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// graphPage is the panel's HTML for v.
export function graphPage(v: GraphView): string {
  const parts: string[] = [];
  if (v.error) {
    const note = v.svg ? " The drawing below is the last one that worked." : "";
    parts.push(`<p class="error" role="alert">${escape(v.error)}${note}</p>`);
  }
  if (v.svg) {
    const data = Buffer.from(v.svg, "utf8").toString("base64");
    const w = naturalWidth(v.svg);
    const size = w ? ` style="--w: ${w}px"` : "";
    parts.push(zoomControls());
    parts.push(`<div class="viewport" tabindex="0" role="region" aria-label="${escape(v.title)}: scroll or use the arrow keys to pan">` +
      `<img class="chain${v.error ? " stale" : ""}"${size} alt="${escape(v.title)}" src="data:image/svg+xml;base64,${data}"></div>`);
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline';">
<title>${escape(v.title)}</title>
<style>
body { padding: 8px; }
h1 { font-size: 1.1em; font-weight: normal; }
.error { color: var(--vscode-errorForeground); white-space: pre-wrap; }
img.chain { width: var(--w, auto); max-width: none; background: #fff; display: block; }
img.stale { opacity: 0.5; }
.viewport { overflow: auto; height: calc(100vh - 7em); border: 1px solid var(--vscode-panel-border, #8884); }
.viewport:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
input[name="zoom"] { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }
label.zoom { display: inline-block; padding: 2px 8px; margin: 0 2px 6px 0; border: 1px solid var(--vscode-button-border, #8886); border-radius: 3px; cursor: pointer; }
input[name="zoom"]:checked + label.zoom { background: var(--vscode-button-background, #0e639c); color: var(--vscode-button-foreground, #fff); }
input[name="zoom"]:focus-visible + label.zoom { outline: 1px solid var(--vscode-focusBorder); }
${zoomStyles()}
</style>
</head>
<body>
<h1>${escape(v.title)}</h1>
${parts.join("\n")}
</body>
</html>
`;
}
