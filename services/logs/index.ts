export { LogStore } from "./store.ts";
export type { LogEntry, LogGroup, LogInput, LogLevel } from "./store.ts";
export { isAllowedHref, splitLinks } from "./links.ts";
export type { MessagePart } from "./links.ts";
