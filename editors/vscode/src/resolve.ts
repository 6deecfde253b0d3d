// Which wop binary runs `wop lsp`: the one decision this extension makes.
// It imports nothing from vscode, so node's test runner checks it alone
// (test/resolve.test.ts); extension.ts feeds it the settings, the trust and
// the file system.

import * as path from "node:path";

/** Where a binary was found, in the order they are tried. */
export type Source = "user setting" | "workspace setting" | "workspace node_modules" | "PATH" | "bundled";

// invokedAs is the command a user types to run the wop found at source,
// which wop's hints name (WOP_INVOKED_AS): "npx wop" for the workspace's
// npm install, which puts no wop on PATH; undefined ("wop") otherwise.
export function invokedAs(source?: Source): string | undefined {
  return source === "workspace node_modules" ? "npx wop" : undefined;
}

export interface ResolveInput {
  platform: string; // process.platform
  arch: string; // process.arch
  /** Workspace Trust: false means the folder's author may not pick a program to run. */
  trusted: boolean;
  /** wop.path from the user (global) settings, "" when unset. */
  userPath: string;
  /** wop.path from the workspace or folder settings, "" when unset. */
  workspacePath: string;
  workspaceFolders: string[];
  /** The PATH environment variable. */
  envPath: string;
  home: string;
  /** The extension's own folder; a platform-specific .vsix carries bin/wop there. */
  extensionDir: string;
  /** Is this an executable file (a stat, injected so tests need no disk). */
  isExecutable: (file: string) => boolean;
}

export interface Resolved {
  /** The binary to start, undefined when none was found. */
  binary?: string;
  source?: Source;
  /** What was skipped and why (untrusted workspace), in the order met. */
  notes: string[];
  /** Set when nothing runs: what is wrong and the fix. */
  error?: string;
}

/**
 * The npm package that carries wop for a platform, as the npm packaging
 * names them (@wop-cli/wop-linux-x64 holds bin/wop); undefined where wop
 * is not built.
 */
export function platformPackage(platform: string, arch: string): string | undefined {
  const os = ["linux", "darwin", "win32"].includes(platform) ? platform : undefined;
  const cpu = ["x64", "arm64"].includes(arch) ? arch : undefined;
  return os && cpu ? `@wop-cli/wop-${os}-${cpu}` : undefined;
}

function exe(platform: string): string {
  return platform === "win32" ? "wop.exe" : "wop";
}

// paths for the platform asked about, so a test on Linux checks Windows too.
function pathsOf(platform: string): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

// expand reads ~/ as home and a relative path from the first workspace
// folder, as a path in settings.json is usually written.
function expand(p: string, input: ResolveInput): string {
  const path = pathsOf(input.platform);
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) {
    return path.join(input.home, p.slice(1));
  }
  if (path.isAbsolute(p) || input.workspaceFolders.length === 0) {
    return p;
  }
  return path.join(input.workspaceFolders[0], p);
}

/**
 * resolveWop: wop.path (the workspace's value over the user's, the
 * workspace's only when trusted), else the workspace's npm install (the
 * platform package's binary itself, not the node shim, then
 * node_modules/.bin/wop; only when trusted), else PATH, else the binary
 * the extension ships. A wop.path that names no executable is an error,
 * not a reason to run something else.
 */
export function resolveWop(input: ResolveInput): Resolved {
  const path = pathsOf(input.platform);
  const notes: string[] = [];
  const name = exe(input.platform);
  if (input.workspacePath && !input.trusted) {
    notes.push(
      `wop.path in this workspace's settings (${input.workspacePath}) is ignored: the workspace is not trusted, ` +
        "and a folder someone else wrote must not choose the program VS Code runs. Trust the workspace, or set wop.path in your user settings."
    );
  }
  const setting: [string, Source] | undefined =
    input.workspacePath && input.trusted
      ? [input.workspacePath, "workspace setting"]
      : input.userPath
        ? [input.userPath, "user setting"]
        : undefined;
  if (setting) {
    const file = expand(setting[0], input);
    if (input.isExecutable(file)) {
      return { binary: file, source: setting[1], notes };
    }
    return {
      notes,
      error: `wop.path (${setting[1]}) is ${file}, which is not an executable file: fix the path, or clear wop.path to find wop in node_modules, on PATH or in the extension.`,
    };
  }

  const pkg = platformPackage(input.platform, input.arch);
  for (const folder of input.workspaceFolders) {
    const candidates = [];
    if (pkg) {
      candidates.push(path.join(folder, "node_modules", ...pkg.split("/"), "bin", name));
    }
    if (input.platform !== "win32") {
      // npm's .bin on Windows is a .cmd script that needs a shell.
      candidates.push(path.join(folder, "node_modules", ".bin", "wop"));
    }
    const found = candidates.find((file) => input.isExecutable(file));
    if (found && input.trusted) {
      return { binary: found, source: "workspace node_modules", notes };
    }
    if (found) {
      notes.push(
        `${found} is not run: the workspace is not trusted, and a folder someone else wrote must not choose the program VS Code runs. Trust the workspace to run the wop it installs.`
      );
      break;
    }
  }

  for (const dir of input.envPath.split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) {
      continue; // a relative PATH entry would be read from the workspace
    }
    const file = path.join(dir, name);
    if (input.isExecutable(file)) {
      return { binary: file, source: "PATH", notes };
    }
  }

  const bundled = path.join(input.extensionDir, "bin", name);
  if (input.isExecutable(bundled)) {
    return { binary: bundled, source: "bundled", notes };
  }
  return {
    notes,
    error:
      "no wop found (not in wop.path, the workspace's node_modules, PATH, nor shipped with this extension): " +
      `run \`npm install -D -E @wop-cli/wop\` in the workspace, put wop on PATH (go install github.com/wop-cli/wop/cmd/wop@latest), or set wop.path in your user settings.`,
  };
}
