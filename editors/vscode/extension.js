// The cardc extension: starts `cardc lsp` (the command in the cardc.server.command setting)
// and connects VS Code to it over stdio. Highlighting needs no server: syntaxes/ does it.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("cardc");
  const [command, ...args] = config.get("server.command", ["cardc", "lsp"]);
  const documentSelector = [{ scheme: "file", language: "cards" }];
  if (config.get("server.yaml", true)) {
    documentSelector.push(
      { scheme: "file", language: "yaml", pattern: "**/cards/*/variants/*.yaml" },
      { scheme: "file", language: "yaml", pattern: "**/tests/scenarios/**/*.yaml" }
    );
  }
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  const run = { command, args, transport: TransportKind.stdio, options: { cwd: folder && folder.uri.fsPath } };
  client = new LanguageClient("cardc", "cardc", { run, debug: run }, { documentSelector });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
