// A command no plugin registered and the page under test cannot play: one message form for every
// player (`why` says which cannot play it), and the test of it that `npm run play`'s hint makes.

/** "Unknown command NAME: no registered plugin has it, and WHY." */
export const unknownCommand = (name: string, why: string) => `Unknown command ${name}: no registered plugin has it, and ${why}.`;

/** Whether a failure's message is unknownCommand's for `name`. */
export const isUnknownCommand = (name: string, message: string) => message.startsWith(unknownCommand(name, "").slice(0, -".".length));
