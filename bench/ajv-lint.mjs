// Baseline for bench/lint.sh and bench/targets.sh: what a Node + ajv script
// does in the same whole-process run, and no more: schema-validate each
// pack.json (with its agents via $ref), compile every schema the pack ships
// (schemas/**/*.json and every file a *SchemaRef names), as the registry's
// own scripts/test-packs.mjs does ("every schema file compiles via
// Ajv2020"), and check that every file ref exists. wop's schema-invalid rule
// does that compile too; the rest of wop's rules have no counterpart here.
// One Ajv instance serves every pack, so the 2020-12 metaschema and the
// OpenWOP schemas are compiled once; a pack's schemas are added together (so
// they can $ref each other) and removed after it (two packs may reuse an $id).
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

// schemaFiles lists the pack's schemas: schemas/**/*.json plus ref targets.
function schemaFiles(dir, refs) {
  const files = new Set();
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else if (e.name.endsWith('.json')) files.add(r);
    }
  };
  if (fs.existsSync(path.join(dir, 'schemas'))) walk('schemas');
  for (const ref of refs) if (ref && ref.endsWith('.json') && fs.existsSync(path.join(dir, ref))) files.add(path.normalize(ref));
  return [...files];
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

  const keys = [];
  for (const f of schemaFiles(dir, refs)) {
    let doc;
    try { doc = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')); } catch { errors++; continue; }
    if (typeof doc !== 'object' || doc === null) { errors++; continue; }
    const key = doc.$id ?? `https://wop.invalid/pack/${f}`;
    try { ajv.addSchema(doc, doc.$id ? undefined : key); keys.push(key); } catch { errors++; }
  }
  for (const key of keys) {
    try { ajv.getSchema(key); } catch { errors++; }
  }
  for (const key of keys) ajv.removeSchema(key);
}
console.log(`${errors} problems in ${packs.length} packs`);
