// Baseline for bench/lint.sh: what a Node + ajv script does in the same
// whole-process run: schema-validate each pack.json (with its agents via
// $ref) and check that every file ref exists. Nothing else.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fs from 'node:fs';
import path from 'node:path';

const [specDir, ...roots] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
for (const f of fs.readdirSync(specDir)) {
  if (f.endsWith('.json')) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(specDir, f), 'utf8')));
}
const kinds = { node: 'node-pack-manifest', 'workflow-chain': 'workflow-chain-pack-manifest', prompt: 'prompt-pack-manifest',
  'artifact-type': 'artifact-type-pack-manifest', card: 'chat-card-pack-manifest', 'form-content': 'form-content-pack-manifest' };
let errors = 0;
const packs = [];
for (const r of roots) {
  if (fs.existsSync(path.join(r, 'pack.json'))) packs.push(r);
  else for (const d of fs.readdirSync(r)) if (fs.existsSync(path.join(r, d, 'pack.json'))) packs.push(path.join(r, d));
}
for (const dir of packs) {
  const m = JSON.parse(fs.readFileSync(path.join(dir, 'pack.json'), 'utf8'));
  const id = kinds[m.kind ?? 'node'];
  if (id) {
    const validate = ajv.getSchema(`https://openwop.dev/spec/v1/${id}.schema.json`);
    if (!validate(m)) errors += validate.errors.length;
  }
  const refs = [];
  for (const n of m.nodes ?? []) refs.push(n.configSchemaRef, n.inputSchemaRef, n.outputSchemaRef);
  for (const a of m.agents ?? []) refs.push(a.systemPromptRef, a.handoff?.taskSchemaRef, a.handoff?.returnSchemaRef);
  for (const ref of refs) if (ref && !fs.existsSync(path.join(dir, ref))) errors++;
}
console.log(`${errors} problems in ${packs.length} packs`);
