// Saving with plugins (CONTRACT section 15, v3's `emit` messages): the messages a save sends.
export type EmitMessage = { action: "emit"; entity: "project" | "config" | "suite" | "test" | "command"; [field: string]: unknown };
