/// <reference types="chrome" />
// "Save to computer" in the extension: the browser's save dialog for NAME.side. The project
// counts as saved only once the file is written: a cancelled dialog or a failed download
// rejects, so the core keeps the changes unsaved and logs why.
import type { SideProject } from "../../services/side/index.ts";

export function sideFileName(name: string): string {
  const base = name.replace(/[^\w.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "");
  return `${base || "project"}.side`;
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

export async function saveToComputer(project: SideProject): Promise<void> {
  const blob = new Blob([`${JSON.stringify(project, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  try {
    const downloadId = await chrome.downloads.download({ url, filename: sideFileName(project.name), saveAs: true });
    if (typeof downloadId !== "number") throw new Error("the save was cancelled");
    await finished(downloadId);
  } finally {
    URL.revokeObjectURL(url);
  }
}
