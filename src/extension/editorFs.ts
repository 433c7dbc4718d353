/** The editor's file system as src/workspace/listedFiles.ts sees it (what is at an address, a folder's entries). */
import * as vscode from 'vscode';
import type { ListingFs } from '../workspace/listedFiles';

export const EDITOR_FS: ListingFs = {
  async kind(address) {
    try {
      const { type } = await vscode.workspace.fs.stat(vscode.Uri.parse(address));
      return type & vscode.FileType.Directory ? 'directory' : 'file';
    } catch {
      return undefined;
    }
  },
  async children(directory) {
    return (await vscode.workspace.fs.readDirectory(vscode.Uri.parse(directory))).map(([name, type]) => ({
      name,
      kind: type & vscode.FileType.Directory ? 'directory' : type & vscode.FileType.File ? 'file' : 'other',
      symbolicLink: (type & vscode.FileType.SymbolicLink) !== 0,
    }));
  },
  join: (directory, name) => vscode.Uri.joinPath(vscode.Uri.parse(directory), name).toString(),
};
