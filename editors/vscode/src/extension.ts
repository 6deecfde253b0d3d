// The wop extension is a client and nothing more (STYLE.md 2.12): it finds
// a wop binary (resolve.ts), starts `wop lsp`, and shows which one runs.
// Every diagnostic, quick fix, hover, completion, definition and chain
// drawing comes from the server, so VS Code and Neovim users see the same
// thing; the chain's lens opens a panel here (chaingraph.ts) that redraws
// as the buffer changes, where Neovim opens the server's SVG file.

import * as fs from "node:fs";
import * as os from "node:os";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, State } from "vscode-languageclient/node";
import { ChainGraphs, showChainCommand } from "./chaingraph";
import { invokedAs, Resolved, resolveWop } from "./resolve";

// The files wop lsp speaks about: manifests and schemas (json), AgentFormat
// and settings (yaml), prompts (markdown). The server decides which of them
// belong to a pack.
const documentSelector = ["json", "jsonc", "yaml", "markdown"].map((language) => ({ scheme: "file", language }));

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    fs.accessSync(file, process.platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// hiddenWorkspacePath finds a wop.path in the workspace's settings files
// while the workspace is untrusted: VS Code then hides it from the API (it is
// a restricted setting), but the user is owed the reason it is not used. The
// value is only ever shown, never run.
function hiddenWorkspacePath(): string {
  const files = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === "file")
    .map((f) => vscode.Uri.joinPath(f.uri, ".vscode", "settings.json").fsPath);
  const wsFile = vscode.workspace.workspaceFile;
  if (wsFile?.scheme === "file") {
    files.push(wsFile.fsPath);
  }
  for (const file of files) {
    try {
      const m = /"wop\.path"\s*:\s*"((?:[^"\\]|\\.)+)"/.exec(fs.readFileSync(file, "utf8"));
      if (m) {
        return m[1];
      }
    } catch {
      // no settings file
    }
  }
  return "";
}

// current reads wop.path as vscode-go reads its tool paths: the user's
// value and the workspace's apart, so an untrusted workspace's own can be
// left out (package.json lists wop.path under restrictedConfigurations too).
function current(context: vscode.ExtensionContext): Resolved {
  const seen = vscode.workspace.getConfiguration("wop").inspect<string>("path");
  return resolveWop({
    platform: process.platform,
    arch: process.arch,
    trusted: vscode.workspace.isTrusted,
    userPath: seen?.globalValue ?? "",
    workspacePath: seen?.workspaceFolderValue || seen?.workspaceValue || (vscode.workspace.isTrusted ? "" : hiddenWorkspacePath()),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath),
    envPath: process.env.PATH ?? "",
    home: os.homedir(),
    extensionDir: context.extensionPath,
    isExecutable,
  });
}

class Wop {
  private client?: LanguageClient;
  private resolved: Resolved = { notes: [] };
  private readonly status: vscode.StatusBarItem;
  private readonly output: vscode.OutputChannel;
  private readonly graphs = new ChainGraphs(() => this.client);

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel("wop");
    context.subscriptions.push(this.graphs);
    this.status = vscode.window.createStatusBarItem("wop.status", vscode.StatusBarAlignment.Left, 0);
    this.status.name = "wop";
    this.status.command = "wop.showStatus";
    context.subscriptions.push(this.output, this.status);
  }

  private queue: Promise<void> = Promise.resolve();

  // restart runs one start after another: a setting change while the
  // server is still starting must not leave two servers or a stale status.
  restart(): Promise<void> {
    this.queue = this.queue.then(() => this.start()).catch((err) => this.output.appendLine(`wop: ${err}`));
    return this.queue;
  }

  private async start(): Promise<void> {
    await this.stop();
    this.resolved = current(this.context);
    for (const note of this.resolved.notes) {
      this.output.appendLine(note);
    }
    const binary = this.resolved.binary;
    if (!binary) {
      this.output.appendLine(this.resolved.error ?? "no wop found");
      this.show("$(error) wop: not found", this.resolved.error ?? "", true);
      void this.tell(vscode.window.showErrorMessage, `wop: ${this.resolved.error}`);
      return;
    }
    this.output.appendLine(`starting ${binary} lsp (${this.resolved.source})`);
    this.show("$(sync~spin) wop", `Starting ${binary} lsp (${this.resolved.source})`, false);
    const invoked = invokedAs(this.resolved.source);
    const server: ServerOptions = { command: binary, args: ["lsp"], options: invoked ? { env: { ...process.env, WOP_INVOKED_AS: invoked } } : undefined };
    const options: LanguageClientOptions = {
      documentSelector,
      outputChannel: this.output,
      middleware: {
        // The chain's lens opens the panel that follows the buffer rather
        // than the server's SVG file.
        executeCommand: (command, args, next) => {
          if (command === showChainCommand && typeof args[0] === "string" && typeof args[1] === "string") {
            this.graphs.show(args[0], args[1]);
            return;
          }
          return next(command, args);
        },
      },
    };
    const client = new LanguageClient("wop", "wop", server, options);
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && this.client === client) {
        this.show("$(error) wop: stopped", `${binary} lsp stopped: see the wop output; wop: Restart Language Server starts it again.`, true);
      }
    });
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      this.show("$(error) wop: failed", `${binary} lsp did not start: ${err}`, true);
      return;
    }
    this.graphs.redrawAll();
    const version = client.initializeResult?.serverInfo?.version ?? "";
    this.show(`$(check) wop ${version}`.trimEnd(), this.describe(), this.resolved.notes.length > 0);
    if (this.resolved.notes.length > 0) {
      void this.tell(vscode.window.showWarningMessage, `wop: ${this.resolved.notes.join(" ")}`);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.stop().catch(() => undefined);
    }
  }

  describe(): string {
    const r = this.resolved;
    const lines = r.binary ? [`wop lsp runs ${r.binary} (from ${r.source}).`] : [r.error ?? "no wop found"];
    return lines.concat(r.notes).join("\n\n");
  }

  private show(text: string, tooltip: string, warn: boolean): void {
    this.status.text = text;
    this.status.tooltip = tooltip;
    this.status.backgroundColor = warn ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    this.status.show();
  }

  // tell shows a message with the two ways out: the setting and the log.
  async tell(show: typeof vscode.window.showInformationMessage, message: string): Promise<void> {
    const choice = await show(message, "Open Settings", "Show Output");
    if (choice === "Open Settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "wop.path");
    } else if (choice === "Show Output") {
      this.output.show();
    }
  }
}

let wop: Wop | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const w = new Wop(context);
  wop = w;
  context.subscriptions.push(
    vscode.commands.registerCommand("wop.restartServer", () => w.restart()),
    vscode.commands.registerCommand("wop.showStatus", () => w.tell(vscode.window.showInformationMessage, w.describe())),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("wop.path")) {
        void w.restart();
      }
    }),
    // Trusting the workspace lets its wop.path and node_modules count.
    vscode.workspace.onDidGrantWorkspaceTrust(() => w.restart()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => w.restart())
  );
  await w.restart();
}

export async function deactivate(): Promise<void> {
  await wop?.stop();
}
