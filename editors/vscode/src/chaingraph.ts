// The "Chain graph" panel: the code lens on a chain of pack.json opens it,
// and it draws that chain of the unsaved buffer, again after each pause in
// typing. wop lsp draws (its wop.chainGraphSVG command); the panel only
// shows what comes back.

import * as vscode from "vscode";
import { LanguageClient } from "vscode-languageclient/node";
import { GraphView, graphPage, isSVG, sameView } from "./graphpage";

// The server's commands: the lens's (which opens a file elsewhere) and the
// one that answers the drawing.
export const showChainCommand = "wop.showChainGraph";
const chainSVGCommand = "wop.chainGraphSVG";

// A pause this long in typing redraws.
const debounceMs = 300;

export class ChainGraphs {
  private readonly open = new Map<string, ChainGraph>();

  constructor(private readonly client: () => LanguageClient | undefined) {}

  // show opens (or brings forward) the panel of the chain at ptr in doc.
  show(doc: string, ptr: string): void {
    const key = `${doc}#${ptr}`;
    const existing = this.open.get(key);
    if (existing) {
      existing.reveal();
      return;
    }
    const graph = new ChainGraph(doc, ptr, this.client, () => this.open.delete(key));
    this.open.set(key, graph);
  }

  // redrawAll asks again for every open drawing (the server restarted).
  redrawAll(): void {
    this.open.forEach((g) => g.redraw());
  }

  dispose(): void {
    [...this.open.values()].forEach((g) => g.dispose());
  }
}

class ChainGraph {
  private readonly panel: vscode.WebviewPanel;
  private readonly listener: vscode.Disposable;
  private readonly view: GraphView;
  private timer?: NodeJS.Timeout;
  private asked = 0; // answers to older requests than the last are dropped

  constructor(private readonly doc: string, private readonly ptr: string, private readonly client: () => LanguageClient | undefined,
    private readonly closed: () => void) {
    this.view = { title: `Chain graph ${ptr}` };
    this.panel = vscode.window.createWebviewPanel("wop.chainGraph", "Chain graph", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: false, localResourceRoots: [] });
    const target = vscode.Uri.parse(doc).toString();
    this.listener = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.toString() === target && e.contentChanges.length > 0) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.redraw(), debounceMs);
      }
    });
    this.panel.onDidDispose(() => this.dispose());
    this.render();
    this.redraw();
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  async redraw(): Promise<void> {
    const asked = ++this.asked;
    const client = this.client();
    let result: { svg?: unknown; title?: unknown } | undefined;
    let error: string | undefined;
    if (!client?.isRunning()) {
      error = "wop lsp is not running: see the wop output.";
    } else {
      try {
        result = await client.sendRequest("workspace/executeCommand", { command: chainSVGCommand, arguments: [this.doc, this.ptr] });
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
    }
    if (asked !== this.asked) {
      return;
    }
    const before = { ...this.view };
    if (result && typeof result.svg === "string" && isSVG(result.svg)) {
      this.view.svg = result.svg;
      this.view.title = typeof result.title === "string" && result.title ? result.title : this.view.title;
      this.view.error = undefined;
    } else {
      this.view.error = error ?? "wop lsp answered something that is not an SVG document.";
    }
    // A new page resets the reader's zoom and scroll: only a new drawing
    // or message is worth that.
    if (!sameView(before, this.view)) {
      this.render();
    }
  }

  private render(): void {
    this.panel.title = `Chain graph: ${this.view.title}`;
    this.panel.webview.html = graphPage(this.view);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.listener.dispose();
    this.closed();
    this.panel.dispose();
  }
}
