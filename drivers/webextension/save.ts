/// <reference types="chrome" />
// "Save to computer" in the extension, Save and "Save as…" alike: the browser's save dialog
// (chrome.downloads, saveAs: true) for NAME.side, since an extension cannot write a path of its
// own. The project counts as saved only once the file is written: a cancelled dialog or a
// failed download rejects, so the core keeps the changes unsaved and logs why. It resolves with
// the file the user chose, which the IDE's log names.
import type { SideProject } from "../../services/side/index.ts";

export function sideFileName(name: string): string {
  const base = name.replace(/[^\w.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "");
  return `${base || "project"}.side`;
}

/** The name the dialog suggests: a path's last part when one came (the page's Save as), else the project's name. */
export function suggestedFileName(project: SideProject, path: string | null): string {
  const given = path?.split(/[\\/]/).pop();
  return given ? sideFileName(given.replace(/\.side$/i, "")) : sideFileName(project.name);
}

function finished(downloadId: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (state: string | undefined, error?: string) => {
      if (state === "complete") {
        chrome.downloads.onChanged.removeListener(listen);
        resolve();
      } else if (state === "interrupted") {
        chrome.downloads.onChanged.removeListener(listen);
        reject(new Error(error === "USER_CANCELED" ? "the save was cancelled" : `the download failed (${error ?? "unknown reason"})`));
      }
    };
    const listen = (delta: chrome.downloads.DownloadDelta) => {
      if (delta.id === downloadId) settle(delta.state?.current, delta.error?.current);
    };
    chrome.downloads.onChanged.addListener(listen);
    // It may have ended before the listener was there.
    void chrome.downloads.search({ id: downloadId }).then(([item]) => settle(item?.state, item?.error));
  });
}

/** The core's `save` port: resolves with the file written (as the browser names it), or rejects saying why not. */
export async function saveToComputer(project: SideProject, to: { path: string | null } = { path: null }): Promise<string | undefined> {
  const blob = new Blob([`${JSON.stringify(project, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  try {
    const downloadId = await chrome.downloads.download({ url, filename: suggestedFileName(project, to.path), saveAs: true });
    if (typeof downloadId !== "number") throw new Error("the save was cancelled");
    await finished(downloadId);
    const [item] = await chrome.downloads.search({ id: downloadId });
    return item?.filename || undefined;
  } finally {
    URL.revokeObjectURL(url);
  }
}
