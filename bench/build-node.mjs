// The registry's way of building a pack today (FORMAT.md §2): hand-made USTAR
// headers, node:zlib gzip level 9, node:crypto Ed25519 over the canonical
// pack.json. Usage: node build-node.mjs PACK_DIR KEY.pem KEY_ID OUT_DIR
// or: node build-node.mjs --all PACKS_DIR KEY.pem KEY_ID OUT_DIR (every pack
// folder under PACKS_DIR in this one process: the builder's --all).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';

const all = process.argv[2] === '--all';
const [root, keyFile, keyId, out] = process.argv.slice(all ? 3 : 2);

function canonical(v) {
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

function header(name, size) {
  const h = Buffer.alloc(512);
  h.write(name, 0, 'ascii');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0' + '00', 257, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(7, '0') + '\0', 148, 'ascii');
  return h;
}

function build(dir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'pack.json'), 'utf8'));
  manifest.signing = { method: 'manual', publicKeyRef: keyId, signatureRef: 'keys/pack.json.sig' };
  const signed = Buffer.from(canonical(manifest));
  const sig = crypto.sign(null, signed, crypto.createPrivateKey(fs.readFileSync(keyFile)));

  const files = new Map([['pack.json', signed], ['keys/pack.json.sig', sig]]);
  for (const top of ['README.md', 'LICENSE', 'index.mjs']) {
    if (fs.existsSync(path.join(dir, top))) files.set(top, fs.readFileSync(path.join(dir, top)));
  }
  for (const [sub, exts] of [['schemas', ['.json']], ['keys', ['.pem', '.sig']], ['prompts', ['.md', '.txt']]]) {
    if (!fs.existsSync(path.join(dir, sub))) continue;
    for (const f of fs.readdirSync(path.join(dir, sub))) {
      const name = sub + '/' + f;
      if (exts.some((e) => f.endsWith(e)) && !files.has(name)) files.set(name, fs.readFileSync(path.join(dir, name)));
    }
  }
  const parts = [];
  for (const name of [...files.keys()].sort()) {
    const data = files.get(name);
    parts.push(header(name, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  const tgz = zlib.gzipSync(Buffer.concat(parts), { level: 9 });
  const base = path.join(out, `${manifest.name}-${manifest.version}`);
  fs.mkdirSync(out, { recursive: true });
  // The four outputs the registry's builder (scripts/build-pack-tarball.mjs)
  // writes per pack, as wop writes four: the archive, a pretty manifest,
  // the signature in base64 and the integrity line.
  const sha = crypto.createHash('sha256').update(tgz).digest('hex');
  fs.writeFileSync(base + '.tgz', tgz);
  fs.writeFileSync(base + '.manifest.json', JSON.stringify(manifest, null, 2) + '\n');
  fs.writeFileSync(base + '.sig.b64', sig.toString('base64'));
  fs.writeFileSync(base + '.integrity.txt', `sha256:${sha}\n`);
  console.log('sha256:' + sha);
}

if (all) {
  for (const d of fs.readdirSync(root).sort()) {
    const dir = path.join(root, d);
    if (fs.existsSync(path.join(dir, 'pack.json'))) {
      try { build(dir); } catch (e) { console.error(dir + ': ' + e.message); }
    }
  }
} else {
  build(root);
}
