// The limit of the delay between a run's commands (CONTRACT section 12), on its own so that
// every place that checks it (the user events' door, the run machine, setSpeed, the UI's
// field) imports the one number, and the UI can do so without the playback language.

/** The longest delay between commands, in milliseconds: CONTRACT section 12. */
export const MAX_DELAY_MS = 10_000;
