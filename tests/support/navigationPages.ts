// Pages whose next document is slow to come (issue 27), for the players' navigation waits in the
// host and the extension: a form posted by a click, a link, Enter in a form, and a script's
// location change run by a click's handler, each to a page the server answers SLOW_MS late. Each
// next page has its own heading, which the command after the click asserts at once.

/** How late the server answers the next pages: long enough that a command played at once reads the old page. */
export const SLOW_MS = 1_500;

export const NAVIGATION_PAGES: Record<string, string> = {
  "/checkout": `<!doctype html><html><head><meta charset="utf-8"><title>Checkout</title></head><body>
<h1>Checkout</h1>
<form method="post" action="/paid"><input type="hidden" name="amount" value="12"><button id="pay">Pay</button></form>
<a id="slow" href="/linked">Slow link</a>
<button id="scripted" type="button" onclick="location.href = '/moved'">Move by script</button>
<form method="get" action="/searched"><input id="q" name="q"></form>
</body></html>`,
  "/paid": `<!doctype html><html><head><meta charset="utf-8"><title>Paid</title></head><body><h1>Thank you</h1></body></html>`,
  "/linked": `<!doctype html><html><head><meta charset="utf-8"><title>Linked</title></head><body><h1>Linked page</h1></body></html>`,
  "/moved": `<!doctype html><html><head><meta charset="utf-8"><title>Moved</title></head><body><h1>Moved page</h1></body></html>`,
  "/searched": `<!doctype html><html><head><meta charset="utf-8"><title>Searched</title></head><body><h1>Search results</h1></body></html>`,
};

export const SLOW_PATHS: Record<string, number> = { "/paid": SLOW_MS, "/linked": SLOW_MS, "/moved": SLOW_MS, "/searched": SLOW_MS };

/** Each way a click or a key navigates, the command that does it and the heading of the page it goes to. */
export const NAVIGATIONS: { name: string; command: string; target: string; value: string; heading: string }[] = [
  { name: "a form posted by a click", command: "click", target: "id=pay", value: "", heading: "Thank you" },
  { name: "a link", command: "click", target: "id=slow", value: "", heading: "Linked page" },
  { name: "a script's location change in the click's handler", command: "click", target: "id=scripted", value: "", heading: "Moved page" },
  { name: "Enter in a form", command: "sendKeys", target: "id=q", value: "${KEY_ENTER}", heading: "Search results" },
];
