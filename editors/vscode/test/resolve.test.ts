// The order in which the extension looks for wop, and what an untrusted
// workspace may not choose. Run by `npm test` (node's test runner), and by
// vscode_test.go under `go test ./...` where node and node_modules exist.

import { test } from "node:test";
import * as assert from "node:assert/strict";
import { invokedAs, platformPackage, resolveWop, ResolveInput } from "../src/resolve";

const ws = "/home/me/pack";
const files = {
  user: "/opt/wop/bin/wop",
  workspaceSetting: "/home/me/pack/tools/wop",
  platformPkg: "/home/me/pack/node_modules/@wop-cli/wop-linux-x64/bin/wop",
  shim: "/home/me/pack/node_modules/.bin/wop",
  onPath: "/usr/local/bin/wop",
  bundled: "/ext/bin/wop",
};

function input(present: string[], over: Partial<ResolveInput> = {}): ResolveInput {
  const set = new Set(present);
  return {
    platform: "linux",
    arch: "x64",
    trusted: true,
    userPath: "",
    workspacePath: "",
    workspaceFolders: [ws],
    envPath: "/usr/bin:/usr/local/bin",
    home: "/home/me",
    extensionDir: "/ext",
    isExecutable: (f) => set.has(f),
    ...over,
  };
}

const all = Object.values(files);

test("order: workspace setting, user setting, platform package, .bin, PATH, bundled", () => {
  const steps: Array<[Partial<ResolveInput>, string[], string, string]> = [
    [{ workspacePath: files.workspaceSetting, userPath: files.user }, all, files.workspaceSetting, "workspace setting"],
    [{ userPath: files.user }, all, files.user, "user setting"],
    [{}, all, files.platformPkg, "workspace node_modules"],
    [{}, [files.shim, files.onPath, files.bundled], files.shim, "workspace node_modules"],
    [{}, [files.onPath, files.bundled], files.onPath, "PATH"],
    [{}, [files.bundled], files.bundled, "bundled"],
  ];
  for (const [over, present, binary, source] of steps) {
    const got = resolveWop(input(present, over));
    assert.equal(got.binary, binary, JSON.stringify(over));
    assert.equal(got.source, source);
    assert.deepEqual(got.notes, []);
  }
});

test("untrusted: the workspace's wop.path and node_modules are not run, and the notes say why", () => {
  const got = resolveWop(input(all, { trusted: false, workspacePath: files.workspaceSetting }));
  assert.equal(got.binary, files.onPath);
  assert.equal(got.source, "PATH");
  assert.equal(got.notes.length, 2);
  assert.match(got.notes[0], /wop\.path in this workspace's settings \(\/home\/me\/pack\/tools\/wop\) is ignored: the workspace is not trusted/);
  assert.match(got.notes[1], /^\/home\/me\/pack\/node_modules\/@wop-cli\/wop-linux-x64\/bin\/wop is not run: the workspace is not trusted/);

  const nothingSkipped = resolveWop(input([files.onPath], { trusted: false }));
  assert.deepEqual(nothingSkipped.notes, [], "nothing to say when trust changed nothing");

  const user = resolveWop(input(all, { trusted: false, workspacePath: files.workspaceSetting, userPath: files.user }));
  assert.equal(user.binary, files.user, "the user's own setting still counts");
  assert.equal(user.source, "user setting");

  const bundled = resolveWop(input([files.platformPkg, files.shim, files.bundled], { trusted: false }));
  assert.equal(bundled.binary, files.bundled);
});

test("untrusted: a relative PATH entry (read from the workspace) is never searched", () => {
  const got = resolveWop(input(["node_modules/.bin/wop", files.bundled], { envPath: "node_modules/.bin:/usr/bin", trusted: false }));
  assert.equal(got.binary, files.bundled);
});

test("a wop.path that is not there is an error naming it, not a fallback", () => {
  const got = resolveWop(input(all, { userPath: "/nope/wop" }));
  assert.equal(got.binary, undefined);
  assert.match(got.error ?? "", /wop\.path \(user setting\) is \/nope\/wop, which is not an executable file: fix the path/);
});

test("relative and ~ paths in wop.path", () => {
  assert.equal(resolveWop(input([files.workspaceSetting], { workspacePath: "tools/wop" })).binary, files.workspaceSetting);
  assert.equal(resolveWop(input(["/home/me/go/bin/wop"], { userPath: "~/go/bin/wop" })).binary, "/home/me/go/bin/wop");
});

test("none found: the error says how to get one", () => {
  const got = resolveWop(input([]));
  assert.equal(got.binary, undefined);
  assert.match(got.error ?? "", /^no wop found .*`npm install -D -E @wop-cli\/wop`.*put wop on PATH.*set wop\.path in your user settings/);
});

test("windows: wop.exe, the platform package, no .cmd shim, ; in PATH", () => {
  const win = (present: string[], over: Partial<ResolveInput> = {}) =>
    resolveWop(
      input(present, { platform: "win32", arch: "arm64", workspaceFolders: ["C:\\p"], envPath: "C:\\Go\\bin;C:\\tools", extensionDir: "C:\\ext", home: "C:\\Users\\me", ...over })
    );
  const pkg = "C:\\p\\node_modules\\@wop-cli\\wop-win32-arm64\\bin\\wop.exe";
  assert.equal(win([pkg]).binary, pkg);
  assert.equal(win(["C:\\p\\node_modules\\.bin\\wop"]).binary, undefined, "npm's .bin on Windows is a shell script");
  assert.equal(win(["C:\\tools\\wop.exe"]).binary, "C:\\tools\\wop.exe");
  assert.equal(win(["C:\\ext\\bin\\wop.exe"]).source, "bundled");
  assert.equal(win(["C:\\Users\\me\\go\\bin\\wop.exe"], { userPath: "~\\go\\bin\\wop.exe" }).source, "user setting");
});

test("hints say npx wop for the workspace's npm install only", () => {
  assert.equal(invokedAs("workspace node_modules"), "npx wop");
  for (const s of ["PATH", "user setting", "workspace setting", "bundled", undefined] as const) {
    assert.equal(invokedAs(s), undefined, String(s));
  }
});

test("platform packages exist for the release's platforms only", () => {
  assert.equal(platformPackage("linux", "x64"), "@wop-cli/wop-linux-x64");
  assert.equal(platformPackage("darwin", "arm64"), "@wop-cli/wop-darwin-arm64");
  assert.equal(platformPackage("freebsd", "x64"), undefined);
  assert.equal(platformPackage("linux", "ia32"), undefined);
});
