#!/usr/bin/env node
// build.js writes wop's npm packages for one release and packs them:
//
//   node npm/build.js --version 0.1.0 --binaries DIR --out OUTDIR
//
// DIR holds GOOS_GOARCH/wop, GOOS_GOARCH/wop-sigstore and
// GOOS_GOARCH/wop-graphviz (.exe on windows)
// for every platform, and GOOS_GOARCH/wop-graphviz-precompiled where the
// release compiled Graphviz for it, the shim's table names; OUTDIR receives one
// `npm pack` tarball per package. Every version, name and os/cpu field comes
// from --version and that table, so no package.json is edited by hand.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { PLATFORMS } = require("./wop/bin/wop");

const here = __dirname;
const root = path.dirname(here);

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!["version", "binaries", "out"].includes(key) || argv[i + 1] === undefined) {
      throw new Error(`usage: node npm/build.js --version VERSION --binaries DIR --out OUTDIR (got ${argv[i]})`);
    }
    opts[key] = argv[i + 1];
  }
  for (const key of ["version", "binaries", "out"]) {
    if (!opts[key]) throw new Error(`npm/build.js: --${key} is required`);
  }
  // npm's own rule for a version, without its semver package: MAJOR.MINOR.PATCH[-pre][+build].
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(opts.version)) {
    throw new Error(`npm/build.js: --version ${opts.version} is not a SemVer version (1.2.3, 1.2.3-next); drop a leading v`);
  }
  return opts;
}

function writeJSON(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + "\n", { mode: 0o644 });
}

// common are the fields every package shares, taken from the main template.
function common(template) {
  const { license, homepage, bugs, repository } = template;
  return { license, homepage, bugs, repository: { ...repository, directory: "npm" } };
}

// PRECOMPILED is wop-graphviz's compiled Graphviz module, where the release
// machine could compile it for the platform (release/precompile-graphviz):
// installed beside the helper, it spares the first drawing the compile.
const PRECOMPILED = "wop-graphviz-precompiled";

// Its modes are release/precompile-graphviz's (0755 folders, 0644 files).
function copyPrecompiled(src, dst) {
  if (fs.existsSync(src)) fs.cpSync(src, dst, { recursive: true });
}

function writePlatform(stage, key, entry, opts, template) {
  const [platform, arch] = key.split(" ");
  const exe = platform === "win32" ? ".exe" : "";
  const dir = path.join(stage, entry.pkg.replace("/", "+"));
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  for (const name of ["wop", "wop-sigstore", "wop-graphviz"]) {
    const src = path.join(opts.binaries, `${entry.goos}_${entry.goarch}`, name + exe);
    if (!fs.existsSync(src)) {
      throw new Error(`npm/build.js: ${src} is missing: ${entry.pkg} needs ${name}${exe} built for ${entry.goos}/${entry.goarch}`);
    }
    fs.copyFileSync(src, path.join(dir, "bin", name + exe));
    fs.chmodSync(path.join(dir, "bin", name + exe), 0o755);
  }
  copyPrecompiled(path.join(opts.binaries, `${entry.goos}_${entry.goarch}`, PRECOMPILED), path.join(dir, "bin", PRECOMPILED));
  writeJSON(path.join(dir, "package.json"), {
    name: entry.pkg,
    version: opts.version,
    description: `wop ${opts.version} for ${platform} ${arch}: the binaries that ${template.name} runs`,
    ...common(template),
    os: [platform],
    cpu: [arch],
    files: ["bin/"],
    preferUnplugged: true,
  });
  fs.writeFileSync(path.join(dir, "README.md"),
    `# ${entry.pkg}\n\nwop and its helpers (wop-sigstore, wop-graphviz) ${opts.version} for ${platform} ${arch}. Install ${template.name}, not this: ` +
    `it depends on this package (optionally, only on ${platform} ${arch}) and runs the binary.\n`, { mode: 0o644 });
  fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  return dir;
}

function writeMain(stage, opts, template) {
  const dir = path.join(stage, template.name.replace("/", "+"));
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  fs.copyFileSync(path.join(here, "wop", "bin", "wop"), path.join(dir, "bin", "wop"));
  fs.chmodSync(path.join(dir, "bin", "wop"), 0o755);
  const optionalDependencies = {};
  for (const entry of Object.values(PLATFORMS)) optionalDependencies[entry.pkg] = opts.version;
  writeJSON(path.join(dir, "package.json"), { ...template, version: opts.version, optionalDependencies });
  fs.copyFileSync(path.join(here, "wop", "README.md"), path.join(dir, "README.md"));
  fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  return dir;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const template = JSON.parse(fs.readFileSync(path.join(here, "wop", "package.json"), "utf8"));
  fs.mkdirSync(opts.out, { recursive: true });
  const stage = fs.mkdtempSync(path.join(opts.out, ".stage-"));
  try {
    const dirs = [writeMain(stage, opts, template)];
    for (const [key, entry] of Object.entries(PLATFORMS)) dirs.push(writePlatform(stage, key, entry, opts, template));
    // One npm call packs them all; npm writes fixed mtimes, so the tarballs
    // depend only on the files.
    execFileSync("npm", ["pack", "--silent", "--pack-destination", path.resolve(opts.out), ...dirs],
      { stdio: ["ignore", "inherit", "inherit"], shell: process.platform === "win32" });
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(err.message);
  process.exit(2);
}
