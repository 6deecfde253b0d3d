// Parses Mermaid documents with Mermaid's own parser, for chaindraw's
// validation test. Usage: node mermaid-parse.mjs DIR < docs, where DIR holds
// node_modules with mermaid and jsdom (bench/mermaid-setup.sh installs
// them) and the documents on stdin are separated by NUL bytes. Prints "ok"
// or "error: ..." per document; exits 1 when any failed to parse.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.argv[2];
const require = createRequire(join(dir, 'package.json'));
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);

// Mermaid's parser sanitises labels with DOMPurify, which needs a DOM.
const { JSDOM } = await load('jsdom');
const dom = new JSDOM('<!DOCTYPE html><body></body>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await import(pathToFileURL(join(dir, 'node_modules/mermaid/dist/mermaid.core.mjs')).href)).default;
mermaid.initialize({ startOnLoad: false });

let input = '';
for await (const chunk of process.stdin) input += chunk;
let bad = 0;
for (const doc of input.split('\0').filter((d) => d.trim())) {
  try {
    await mermaid.parse(doc);
    console.log('ok');
  } catch (e) {
    bad++;
    console.log('error: ' + String(e.message || e).split('\n').slice(0, 4).join(' | '));
  }
}
process.exit(bad ? 1 : 0);
