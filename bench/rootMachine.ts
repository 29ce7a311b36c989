// The root machine's shape, as the undo benchmark reports it beside its figures (issue 33:
// "the door routes, the root decides"): how many transitions the root has, how many of them
// only pass an event on to a child (their every action a forward*), and its lines.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ideMachine } from "../machines/ide.machine.ts";

export interface RootMachineShape {
  transitions: number;
  passOnOnly: number;
  lines: number;
}

interface NodeLike {
  transitions: Map<string, Array<{ actions?: unknown[]; target?: unknown; guard?: unknown }>>;
  states?: Record<string, NodeLike>;
}

const actionName = (action: unknown): string =>
  typeof action === "string" ? action : ((action as { type?: string } | null)?.type ?? "(inline)");

export function rootMachineShape(): RootMachineShape {
  let transitions = 0;
  let passOnOnly = 0;
  const walk = (node: NodeLike) => {
    for (const candidates of node.transitions.values()) {
      for (const t of candidates) {
        transitions++;
        const names = (t.actions ?? []).map(actionName);
        if (names.length > 0 && !t.target && names.every((name) => name.startsWith("forward"))) passOnOnly++;
      }
    }
    for (const child of Object.values(node.states ?? {})) walk(child);
  };
  walk(ideMachine.root as unknown as NodeLike);
  const source = readFileSync(fileURLToPath(new URL("../machines/ide.machine.ts", import.meta.url)), "utf8");
  return { transitions, passOnOnly, lines: source.split("\n").length - (source.endsWith("\n") ? 1 : 0) };
}
