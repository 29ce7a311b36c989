// The journal of unsaved changes (CONTRACT round 4): createIde's `journal` port gets the
// unsaved project after every change of it, before the change is acknowledged (a plugin's
// reply, the UI's next view), and null when nothing is unsaved any more (a save, a load, the
// user's yes to discard). The adapters keep it: the host in a file, the extension in
// chrome.storage.local (apps/host/journal.ts, apps/extension/journal.ts).
import { childActors, unsavedChangesOf } from "../machines/ide.selectors.ts";
import type { IdeActor } from "../machines/ide.selectors.ts";
import { messageOf } from "../services/errors.ts";
import type { SideProject } from "../services/side/index.ts";

export interface Journal {
  /**
   * Keeps the unsaved project, or forgets it (null). Called in order, never while an earlier
   * call's promise is pending (the latest value is written next); a returned promise holds
   * back every acknowledgement until it settles. A synchronous write holds back nothing.
   */
  write(project: SideProject | null): void | Promise<void>;
  /** The IDE stopped: let go of what the journal holds open (a file); what it wrote stays. */
  stop?(): void;
  /**
   * What the adapter found at start: a journal newer than the saved project, which the IDE
   * offers in the "Restore unsaved changes" dialog, or why the one found could not be used
   * (logged as an error; the adapter moved it aside).
   */
  found?: { project: SideProject } | { problem: string } | null;
}

export interface Journaling {
  /** A write is under way: acknowledgements wait for settled(). */
  readonly busy: boolean;
  /** Resolves once every change so far is written (or failed, which is logged). */
  settled(): Promise<void>;
  stop(): void;
}

/**
 * Watches the project file machine, which counts the revisions and keeps the editor's project
 * as last told (its snapshots come synchronously after each event, before any reply leaves),
 * and writes each new revision. While "Restore unsaved changes" is asked, nothing is written:
 * the journal holds what the user is being offered.
 */
export function keepJournal(ide: IdeActor, journal: Journal, logError: (message: string) => void): Journaling {
  const first = unsavedChangesOf(ide.getSnapshot());
  let seen = { revision: first.revision, savedRevision: first.savedRevision };
  let pending: Promise<void> | null = null;
  let queued: { value: SideProject | null } | null = null;
  let failing = false;

  function failed(error: unknown) {
    // Told once per run of failures, not once per edit.
    if (!failing) logError(`The unsaved changes could not be journaled: ${messageOf(error)}. They are kept here; save them to keep them safe.`);
    failing = true;
  }

  function put(value: SideProject | null) {
    if (pending) {
      queued = { value };
      return;
    }
    let result: void | Promise<void>;
    try {
      result = journal.write(value);
    } catch (error) {
      failed(error);
      return;
    }
    if (!result) {
      failing = false;
      return;
    }
    pending = result.then(
      () => void (failing = false),
      (error: unknown) => failed(error),
    );
    void pending.then(() => {
      pending = null;
      const next = queued;
      queued = null;
      if (next) put(next.value);
    });
  }

  const subscription = childActors(ide.getSnapshot()).projectFile.subscribe(() => {
    const now = unsavedChangesOf(ide.getSnapshot());
    if (now.revision === seen.revision && now.savedRevision === seen.savedRevision) return;
    if (now.offeringRestore) return;
    seen = { revision: now.revision, savedRevision: now.savedRevision };
    put(now.unsaved ? now.project : null);
  });

  return {
    get busy() {
      return pending !== null;
    },
    async settled() {
      while (pending) await pending;
    },
    stop() {
      subscription.unsubscribe();
      journal.stop?.();
    },
  };
}
