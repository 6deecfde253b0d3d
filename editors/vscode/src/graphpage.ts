// The chain graph panel's page, apart from VS Code so node's test runner
// can read it: the server's SVG shown as an image, which runs no script
// whatever it holds, under a policy that loads nothing else.

export interface GraphView {
  title: string;
  // svg is the last drawing that came back, kept while the buffer does
  // not draw (invalid JSON mid-typing, the chain gone, no helper).
  svg?: string;
  // error is why the latest request did not draw.
  error?: string;
}

// isSVG says whether text is an SVG document as Graphviz writes one: an
// XML declaration, comments and a doctype at most before the <svg> root.
export function isSVG(text: string): boolean {
  const prolog = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[^\]]*\])?\s*>)\s*)*<svg[\s>]/;
  return prolog.test(text) && /<\/svg>\s*$/.test(text);
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
    parts.push(`<img class="chain${v.error ? " stale" : ""}" alt="${escape(v.title)}" src="data:image/svg+xml;base64,${data}">`);
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
img.chain { max-width: 100%; background: #fff; }
img.stale { opacity: 0.5; }
</style>
</head>
<body>
<h1>${escape(v.title)}</h1>
${parts.join("\n")}
</body>
</html>
`;
}
