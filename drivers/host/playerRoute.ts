// Which page commands the host's one player (devtoolsPlayer.ts) plays, and in which window: the
// in-page commands (drivers/player/) in the top document of the window WebDriver is
// on, while no frame is selected; everything else (open, executeScript, selectFrame,
// selectWindow, a click that opens a window, commands in a selected frame, a browser whose
// DevTools this host cannot reach, a command the page declines) goes to side-runtime's
// WebDriverExecutor. The window and frame WebDriver is on are followed from the commands it
// played, so both players always act on the same document.
import { inPageRequest } from "../player/request.ts";
import { actsOnPage as acts, IN_PAGE_COMMANDS, KEY_VARIABLES } from "../player/index.ts";
import type { SideCommand } from "../../services/side/index.ts";
import type { VariableValues } from "../../services/playback/variables.ts";
import type { StrategyDeclaration } from "../../services/locators/templates.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import type { Session } from "./browserSession.ts";
import { devtoolsPlayer } from "./devtoolsPlayer.ts";
import type { DevToolsPlayer } from "./devtoolsPlayer.ts";

interface Where {
  /** How deep in frames WebDriver is (0: the top document). */
  depth: number;
  /** The window WebDriver is on, once known (null after a command that may have switched it, and at a run's start: a recording follows windows between runs). */
  handle: string | null;
  /** The run that played last here. */
  runId: string | undefined;
  player: Promise<DevToolsPlayer | null> | null;
}


export interface PlayerRoute {
  /** The command played by the player, or null: WebDriver plays it. */
  play(session: Session, command: SideCommand, variables: VariableValues, runId: string | undefined, signal: AbortSignal, strategies?: readonly StrategyDeclaration[]): Promise<PageOutcome | null>;
  /** WebDriver played `command` and it passed: where WebDriver is now. */
  played(session: Session, command: SideCommand): void;
  /** The session is over. */
  close(session: Session): void;
  /**
   * Sets the player up in a new session's window `handle` before its first command, so its
   * DevTools connection (through a Grid, most of a second) is made while `open` loads the page.
   */
  prepare(session: Session, handle: string): void;
}

export function playerRoute(limits: { implicitWaitMs: number; loadTimeoutMs: number; actionWaits?: false }): PlayerRoute {
  const places = new WeakMap<Session, Where>();
  const whereOf = (session: Session) => {
    let where = places.get(session);
    if (!where) places.set(session, (where = { depth: 0, handle: null, runId: undefined, player: null }));
    return where;
  };

  async function playerFor(session: Session, where: Where): Promise<DevToolsPlayer | null> {
    where.handle ??= await session.driver.getWindowHandle();
    const known = where.player ? await where.player : undefined;
    if (known === null) return null; // no DevTools for this browser
    if (known && known.usable() && known.handle === where.handle) return known;
    known?.close();
    const handle = where.handle;
    where.player = devtoolsPlayer(session.driver, handle, limits).catch(() => null);
    return where.player;
  }

  return {
    async play(session, command, variables, runId, signal, strategies) {
      const where = whereOf(session);
      if (where.runId !== runId) {
        where.runId = runId;
        where.handle = null;
      }
      if (!IN_PAGE_COMMANDS.has(command.command) || (command as { opensWindow?: unknown }).opensWindow === true) return null;
      if (where.depth !== 0) return null;
      const player = await playerFor(session, where).catch(() => null);
      if (!player) return null;
      const built = inPageRequest(command, variables, KEY_VARIABLES, limits.implicitWaitMs, strategies);
      if (!built.ok) return { state: "failed", message: built.message };
      if (limits.actionWaits === false) built.request.actionWaits = false;
      let answer;
      try {
        answer = await player.run(built.request, acts(command.command), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        // The player's session broke (its connection closed, the document never came): the next
        // command gets a new player. A command whose input went out is not played again (a second
        // click); as with a navigation under it, it has passed. Else WebDriver plays it, and tells
        // whether the browser is gone.
        const acted = player.inputSent() && acts(command.command);
        player.close();
        where.player = null;
        return acted ? { state: "passed" } : null;
      }
      if (answer === null || answer.state === "unsupported") return null;
      if (answer.state === "failed") return { state: "failed", message: answer.message };
      const outcome: PageOutcome = { state: "passed" };
      if (answer.stored) outcome.variables = { [answer.stored.name]: answer.stored.value };
      if (answer.healed) outcome.healed = answer.healed;
      return outcome;
    },

    played(session, command) {
      const where = whereOf(session);
      const target = command.target.trim();
      if (command.command === "open") where.depth = 0;
      else if (command.command === "selectFrame") where.depth = target === "relative=top" ? 0 : target === "relative=parent" ? Math.max(0, where.depth - 1) : where.depth + 1;
      else if (command.command === "selectWindow" || command.command === "close") {
        where.depth = 0;
        where.handle = null;
      }
    },

    prepare(session, handle) {
      const where = whereOf(session);
      if (where.player) return;
      where.handle = handle;
      // One that failed this early is tried again at the next command, not taken as "no DevTools".
      const player: Promise<DevToolsPlayer | null> = devtoolsPlayer(session.driver, handle, limits).catch(() => {
        if (where.player === player) where.player = null;
        return null;
      });
      where.player = player;
    },

    close(session) {
      const where = places.get(session);
      places.delete(session);
      void where?.player?.then((player) => player?.close());
    },
  };
}
