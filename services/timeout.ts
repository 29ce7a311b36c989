// Every wait has a limit: a promise raced against a timer, which rejects with a TimeoutError
// naming what did not answer. Used by the core's ports (plugins, the page under test, the tab)
// and by the host's drivers (a new browser session, the DevTools connection, a live page).

/** What was waited for did not answer in time. */
export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TimeoutError";
  }
}

/** `promise`, or a TimeoutError "WHAT did not answer within MS ms" once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
