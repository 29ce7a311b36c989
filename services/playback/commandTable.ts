// The commands of a running test case with their states, kept in fixed-size chunks so a
// state update copies one chunk (and the short chunk list) instead of the whole test case:
// machine context stays immutable and a 10,000-command test case stays cheap to update.

export const COMMAND_STATES = ["failed", "fatal", "passed", "pending", "undetermined"] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

/** The locator that found a healed command's element, and its score in 0..1 (1 for one of the command's `targets`): CONTRACT section 18. */
export interface HealedBy {
  readonly locator: string;
  readonly score: number;
}

export interface CommandRow {
  readonly id: string;
  readonly command: string;
  readonly target: string;
  readonly value: string;
  readonly state: CommandState | null;
  readonly message: string | null;
  /** Present once the command passed healed, until it plays again. */
  readonly healed?: HealedBy;
  /** Beside `healed`: the element's fingerprint as the player found it, which accepting the healed locator keeps. */
  readonly healedFingerprint?: unknown;
}

export interface CommandTable {
  /** Command id to its position; built once per test case and shared by every update. */
  readonly positions: ReadonlyMap<string, number>;
  readonly chunks: ReadonlyArray<ReadonlyArray<CommandRow>>;
  readonly length: number;
}

/** Rows per chunk. */
export const CHUNK = 128;

export function createCommandTable(
  commands: ReadonlyArray<{ id: string; command: string; target?: string; value?: string }>,
): CommandTable {
  const positions = new Map<string, number>();
  const chunks: CommandRow[][] = [];
  commands.forEach((c, i) => {
    if (!positions.has(c.id)) positions.set(c.id, i);
    if (i % CHUNK === 0) chunks.push([]);
    chunks[chunks.length - 1].push(
      Object.freeze({
        id: c.id,
        command: c.command,
        target: c.target ?? "",
        value: c.value ?? "",
        state: null,
        message: null,
      }),
    );
  });
  return { positions, chunks, length: commands.length };
}

export function hasCommand(table: CommandTable, commandId: string): boolean {
  return table.positions.has(commandId);
}

/** The row of a command, or undefined when the table has no such command. */
export function rowOf(table: CommandTable, commandId: string): CommandRow | undefined {
  const at = table.positions.get(commandId);
  return at === undefined ? undefined : table.chunks[Math.floor(at / CHUNK)][at % CHUNK];
}

/** A new table with one command's state and message replaced (and how it healed, or no longer healed); the table given is unchanged. */
export function withCommandState(
  table: CommandTable,
  commandId: string,
  state: CommandState,
  message: string | null,
  healed?: HealedBy,
  healedFingerprint?: unknown,
): CommandTable {
  const at = table.positions.get(commandId);
  if (at === undefined) return table;
  const c = Math.floor(at / CHUNK);
  const chunk = table.chunks[c].slice();
  const { healed: _before, healedFingerprint: _was, ...row } = chunk[at % CHUNK];
  const marks = healed ? (healedFingerprint === undefined ? { healed } : { healed, healedFingerprint }) : {};
  chunk[at % CHUNK] = Object.freeze({ ...row, state, message, ...marks });
  const chunks = table.chunks.slice();
  chunks[c] = chunk;
  return { positions: table.positions, chunks, length: table.length };
}

export function commandRows(table: CommandTable): CommandRow[] {
  // A plain loop: Array.prototype.flat is ten times slower on 10,000 rows.
  const rows: CommandRow[] = new Array(table.length);
  let i = 0;
  for (const chunk of table.chunks) for (const row of chunk) rows[i++] = row;
  return rows;
}
