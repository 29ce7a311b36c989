// How a page command fails inside the page: a thrown CommandFailure becomes a `failed` answer
// with its message (an assertion that does not hold, an element not found, bad input). Anything
// else thrown is a fault of this code or of the page, and is answered as `failed` too.

export class CommandFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CommandFailure";
  }
}

/** The run let go of the command (its `signal` aborted) while it waited. */
export class CommandAborted extends Error {
  constructor() {
    super("The command was stopped while it waited.");
    this.name = "CommandAborted";
  }
}

/**
 * A command this page cannot play for this element, though another player can (a file input
 * where no one answers its file chooser): answered `unsupported`, so the host's WebDriver plays
 * it and the extension says why it cannot.
 */
export class NotPlayableHere extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotPlayableHere";
  }
}

/** Selenium's quoting of values in its assertion messages: 'x'. */
export const quoted = (value: unknown): string => `'${value}'`;
