// The names the host's page player (hostEntry.ts, in the page) and its driver
// (drivers/host/devtoolsPlayer.ts, in Node) share.

/** The isolated world the player lives in, in every document of the window under test. */
export const PLAYER_WORLD = "ide-core-player";
/** The player's global in that world. */
export const PLAYER_GLOBAL = "__ideCorePlayer";
/** The binding through which the player asks for trusted input. */
export const INPUT_BINDING = "__ideCorePlayerInput";
/** How long one batch of input events may take the browser. */
export const INPUT_LIMIT_MS = 10_000;
