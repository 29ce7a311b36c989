// The windows a recording follows (CONTRACT section 19), as v3 names them: the window the
// recording started in is `win_ser_local`, each window a recorded click opened is `win_ser_N`
// (N from 1, in the order they opened). Pure; the recording machine keeps a RecordedWindows.
// Windows are known by the recorder's tab id: the browser's tab id in the extension; in the host,
// whose pages have none, a number below 0 (-1, -2, ... as Chrome's TAB_ID_NONE is -1), which
// plugins are told as null (CONTRACT section 14: the browser's ids where there are such).

/** The variable v3 keeps the first window's handle in. */
export const ROOT_WINDOW = "win_ser_local";

/** The windows known by tab id, the one the last recorded command was done in, and how many were opened. */
export interface RecordedWindows {
  names: Record<number, string>;
  current: number | null;
  opened: number;
  /** `storeWindowHandle win_ser_local` is recorded (once, when the first window opens). */
  rootStored: boolean;
}

export const noWindows = (): RecordedWindows => ({ names: {}, current: null, opened: 0, rootStored: false });

/** selectWindow's target for the window named `name`: the variable its handle is in. */
export const selectWindowTarget = (name: string): string => `handle=\${${name}}`;

/** The windows once `tabId` is seen first: it becomes `win_ser_local` when no window is known yet. */
export function adoptRoot(windows: RecordedWindows, tabId: number | null): RecordedWindows {
  if (tabId === null || windows.current !== null) return windows;
  return { ...windows, names: { [tabId]: ROOT_WINDOW }, current: tabId };
}

/**
 * The selectWindow target to record before a command done in `tabId` (null: none, the same
 * window or one the recording does not know), and the windows after it.
 */
export function switchTo(windows: RecordedWindows, tabId: number | null): { select: string | null; windows: RecordedWindows } {
  const adopted = adoptRoot(windows, tabId);
  if (tabId === null || adopted.current === tabId || adopted.names[tabId] === undefined) return { select: null, windows: adopted };
  return { select: selectWindowTarget(adopted.names[tabId]), windows: { ...adopted, current: tabId } };
}

/** The name a window opened from `openerTabId` gets, or null when the opener is not a window of the recording (or `tabId` already is). */
export function openWindow(windows: RecordedWindows, tabId: number, openerTabId: number): { name: string; windows: RecordedWindows } | null {
  if (windows.names[openerTabId] === undefined || windows.names[tabId] !== undefined) return null;
  const opened = windows.opened + 1;
  const name = `win_ser_${opened}`;
  return { name, windows: { ...windows, opened, names: { ...windows.names, [tabId]: name } } };
}

/** The windows once `tabId` closed: forgotten (its name is not given again). */
export function closeWindow(windows: RecordedWindows, tabId: number): RecordedWindows {
  const names = { ...windows.names };
  delete names[tabId];
  return { ...windows, names };
}

/** Whether `tabId` is a window a recorded click opened (not the first one). */
export const isOpenedWindow = (windows: RecordedWindows, tabId: number): boolean =>
  windows.names[tabId] !== undefined && windows.names[tabId] !== ROOT_WINDOW;

/** The tab id plugins are told for a window: the browser's (0 and up), else null (a host's page). */
export const pluginTabId = (tabId: number | null): number | null => (tabId !== null && tabId >= 0 ? tabId : null);
