// The torture page (CONTRACT section 19, issue 26): small pages served on 127.0.0.1 (serve
// TORTURE_PAGES with browserPages.ts's servePages), each with a hard case for a player, and
// TORTURE_CASES, the Selenium IDE commands that play each case and assert in the page what it
// did. Every case opens its own page first, so a case does not depend on the one before it.
// The host, the extension, a Grid and the exported code play the same cases. The exported code
// has no implicit wait, so a case that follows a navigation waits for the next page's element.

export interface TortureCommand {
  command: string;
  target: string;
  value: string;
  opensWindow?: boolean;
  windowHandleName?: string;
  windowTimeout?: number;
}

export type ExportLanguage = "javascript-mocha" | "python-pytest";

export interface TortureCase {
  name: string;
  commands: TortureCommand[];
  /** It uploads UPLOAD_FILE by a path relative to the .side file, which only the host can read; the extension is given the file's absolute path. */
  uploadsRelative?: boolean;
  /** Why the exported code of a language leaves it out (Selenium's own packages cannot write it so that it runs), if so. */
  notExported?: Partial<Record<ExportLanguage, string>>;
}

/** The file the upload case names, relative to the .side file's folder (the test writes it there). */
export const UPLOAD_FILE = { name: "torture-note.txt", content: "twelve bytes" };

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const out = (text = "") => `<p id="out">${text}</p>`;
const show = (text: string) => `document.getElementById('out').textContent = ${text}`;

export const TORTURE_PAGES: Record<string, string> = {
  "/t/shadow": page(
    "Shadow",
    `<x-card></x-card>${out()}
<script>
customElements.define("x-card", class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = '<button class="buy">Buy</button><span class="status">idle</span>';
    root.querySelector(".buy").addEventListener("click", () => (root.querySelector(".status").textContent = "bought"));
  }
});
</script>`,
  ),
  "/t/nested-shadow": page(
    "Nested shadow",
    `<x-outer></x-outer>${out()}
<script>
customElements.define("x-inner", class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = '<input class="field"><button class="go">Go</button>';
    root.querySelector(".go").addEventListener("click", () => { ${show('"inner got " + root.querySelector(".field").value')}; });
  }
});
customElements.define("x-outer", class extends HTMLElement {
  connectedCallback() { this.attachShadow({ mode: "open" }).innerHTML = "<x-inner></x-inner>"; }
});
</script>`,
  ),
  "/t/frames": page(
    "Frames",
    `<h1 id="top">Top</h1>
<iframe id="first" src="/t/frame-inner?first"></iframe>
<iframe id="pay" src="/t/frame-inner?pay"></iframe>`,
  ),
  "/t/frame-inner": page(
    "Inner",
    `<input id="card"><button id="ok" onclick="document.getElementById('paid').textContent = 'paid ' + document.getElementById('card').value + location.search">OK</button><p id="paid"></p>`,
  ),
  "/t/late-frame": page(
    "Late frame",
    `<h1 id="top">Top</h1>
<script>setTimeout(() => { const f = document.createElement("iframe"); f.id = "late"; f.src = "/t/frame-inner?late"; document.body.append(f); }, 400);</script>`,
  ),
  "/t/window": page("Opener", `<a id="help" href="/t/help" target="_blank">Help</a><h1 id="top">Opener</h1>`),
  "/t/help": page("Help", `<p id="faq">Frequently asked</p>`),
  "/t/hover": page(
    "Hover",
    `<style>
.menu { display: inline-block; position: relative; }
.menu .items { display: none; position: absolute; top: 100%; left: 0; background: #eee; }
.menu:hover .items { display: block; }
</style>
<div class="menu" id="menu"><span>Account</span><div class="items"><a id="logout" href="#" onclick="${show("'logged out'")}; return false">Log out</a></div></div>
${out()}`,
  ),
  "/t/upload": page(
    "Upload",
    `<input type="file" id="file">${out()}
<script>document.getElementById("file").addEventListener("change", (e) => { const f = e.target.files[0]; ${show('f.name + ": " + f.size + " bytes"')}; });</script>`,
  ),
  "/t/dnd": page(
    "Drag and drop",
    `<style>#card, #bin { width: 100px; height: 60px; margin: 20px; border: 1px solid; }</style>
<div id="card" draggable="true">Card</div><div id="bin">Bin</div>${out()}
<script>
document.getElementById("card").addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", "card"));
document.getElementById("bin").addEventListener("dragover", (e) => e.preventDefault());
document.getElementById("bin").addEventListener("drop", (e) => { e.preventDefault(); ${show('"dropped " + e.dataTransfer.getData("text/plain")')}; });
</script>`,
  ),
  "/t/sortable": page(
    "Sortable",
    `<style>li { height: 30px; margin: 4px; background: #ddd; list-style: none; user-select: none; }</style>
<ul id="list"><li id="a">A</li><li id="b">B</li><li id="c">C</li></ul>${out("ABC")}
<script>
let dragged = null;
let moved = false;
const list = document.getElementById("list");
list.addEventListener("mousedown", (e) => { dragged = e.target.closest("li"); moved = false; });
document.addEventListener("mousemove", () => { if (dragged) moved = true; });
document.addEventListener("mouseup", (e) => {
  const over = e.target.closest && e.target.closest("li");
  if (dragged && moved && over && over !== dragged) list.insertBefore(dragged, over.nextSibling);
  dragged = null;
  ${show('[...list.children].map((li) => li.textContent).join("")')};
});
</script>`,
  ),
  "/t/mouse": page(
    "Mouse",
    `<button id="twice" ondblclick="${show("'double clicked'")}">Twice</button>
<div id="pad" style="width:120px;height:40px;background:#ccc" onmousedown="this.dataset.log = 'down'" onmouseup="this.dataset.log += ' up'; ${show("this.dataset.log")}">Pad</div>
${out()}`,
  ),
  "/t/keys": page(
    "Keys",
    `<input id="search" onkeydown="if (event.key === 'Enter') ${show("'searched ' + this.value")}">
<input id="first"><input id="second" onfocus="${show("'second focused'")}">
<input id="word" value="">
<ul id="options" tabindex="0" data-at="0"><li>Red</li><li>Green</li><li>Blue</li></ul>
<p id="picked">Red</p>${out()}
<script>
document.getElementById("options").addEventListener("keydown", (e) => {
  const list = e.currentTarget;
  const at = Number(list.dataset.at) + (e.key === "ArrowDown" ? 1 : e.key === "ArrowUp" ? -1 : 0);
  list.dataset.at = String(Math.max(0, Math.min(2, at)));
  document.getElementById("picked").textContent = list.children[Number(list.dataset.at)].textContent;
});
</script>`,
  ),
  "/t/editable": page("Editable", `<div id="note" contenteditable="true">old note</div>`),
  "/t/scroll": page(
    "Scroll",
    `<div id="box" style="height:100px;overflow:auto;border:1px solid">
${Array.from({ length: 40 }, (_, i) => `<div style="height:30px"><button id="row${i}" onclick="${show(`'row ${i}'`)}">Row ${i}</button></div>`).join("")}
</div>${out()}`,
  ),
  "/t/select": page(
    "Select",
    `<select id="size"><option>Small</option><option value="m">Medium</option><option>Large</option></select>
<select id="toppings" multiple size="4"><option>Cheese</option><option>Ham</option><option>Olives</option></select>
${out()}
<script>
const report = () => { ${show('document.getElementById("size").value + " with " + [...document.getElementById("toppings").selectedOptions].map((o) => o.text).join("+")')}; };
document.getElementById("size").addEventListener("change", report);
document.getElementById("toppings").addEventListener("change", report);
</script>`,
  ),
  "/t/checks": page(
    "Checks",
    `<label><input type="checkbox" id="news"> News</label><label><input type="checkbox" id="terms" checked> Terms</label>${out()}
<script>document.addEventListener("change", () => { ${show('"news " + document.getElementById("news").checked + ", terms " + document.getElementById("terms").checked')}; });</script>`,
  ),
  "/t/late": page(
    "Late",
    `<button id="save" disabled onclick="${show("'saved'")}">Save</button>
<div id="slot"></div><p id="banner" style="display:none">Ready</p>${out()}
<script>
setTimeout(() => (document.getElementById("save").disabled = false), 400);
setTimeout(() => {
  const later = Object.assign(document.createElement("button"), { id: "later", textContent: "Later" });
  later.addEventListener("click", () => { ${show("'later clicked'")}; });
  document.getElementById("slot").append(later);
}, 400);
setTimeout(() => (document.getElementById("banner").style.display = "block"), 400);
</script>`,
  ),
  "/t/sticky": page(
    "Sticky",
    `<style>header { position: sticky; top: 0; height: 80px; background: #333; color: white; z-index: 2; }</style>
<header>Header</header>
<div style="height:1500px"></div>
<button id="deep" onclick="${show("'deep clicked'")}">Deep</button>
<div style="height:1500px"></div>${out()}`,
  ),
  "/t/text": page(
    "Text",
    `<p id="price">  42.50 EUR </p><input id="qty" value="3"><input id="copy"><p id="hidden" style="display:none">secret</p>`,
  ),
  "/t/form": page(
    "Form",
    `<form id="signup" action="/t/thanks" method="get"><input name="who" id="who"><button id="send">Send</button></form>`,
  ),
  "/t/thanks": page("Thanks", `<p id="said"></p><script>document.getElementById("said").textContent = "thanks " + new URLSearchParams(location.search).get("who");</script>`),
  "/t/links": page("Links", `<a id="next" href="/t/next">Next</a>`),
  "/t/next": page("Next page", `<h1 id="heading">Arrived</h1>`),
  "/t/script": page("Script", `<ul id="items"><li>x</li><li>y</li><li>z</li></ul>${out()}`),
  "/t/overlay": page(
    "Overlay",
    `<style>#spinner { position: fixed; inset: 0; background: rgba(0, 0, 0, 0.4); }</style>
<button id="pay" onclick="${show("'paid'")}">Pay</button>${out()}<div id="spinner"></div>
<script>setTimeout(() => document.getElementById("spinner").remove(), 400);</script>`,
  ),
  "/t/nested-frames": page("Nested frames", `<h1 id="top">Top</h1><iframe id="outer" src="/t/frame-middle"></iframe>`),
  "/t/frame-middle": page("Middle", `<p id="middle">Middle</p><iframe id="inner" src="/t/frame-inner?inner"></iframe>`),
  "/t/shadow-frame": page("Shadow in a frame", `<iframe id="shop" src="/t/shadow"></iframe>`),
  "/t/controlled": page(
    "Controlled",
    `<input id="email">${out()}
<script>
// As a framework does: it tracks the value it last set, and reads the field's own input events.
const field = document.getElementById("email");
const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
let state = "";
field.addEventListener("input", () => { state = native.get.call(field).toLowerCase(); native.set.call(field, state); ${show('"state " + state')}; });
</script>`,
  ),
};

const BOTH = (why: string): Partial<Record<ExportLanguage, string>> => ({ "javascript-mocha": why, "python-pytest": why });
const NO_IMPLICIT_WAIT = BOTH("Selenium IDE's exported code sets no implicit wait, so it looks for an element the page adds late once, at once, and fails");
const LEGACY_ACTIONS = {
  "javascript-mocha": "Selenium IDE's javascript-mocha writes mouseOver, mouseDown, mouseMoveAt and mouseUp with driver.actions().moveToElement, which selenium-webdriver 4 no longer has",
};

const c = (command: string, target = "", value = "", extra: Partial<TortureCommand> = {}): TortureCommand => ({ command, target, value, ...extra });

export const TORTURE_CASES: TortureCase[] = [
  {
    name: "clicks a button inside an open shadow root",
    commands: [c("open", "/t/shadow"), c("click", "css=x-card >>> .buy"), c("assertText", "css=x-card >>> .status", "bought")],
  },
  {
    name: "types and clicks through nested shadow roots",
    commands: [
      c("open", "/t/nested-shadow"),
      c("type", "css=x-outer >>> x-inner >>> .field", "deep"),
      c("click", "css=x-outer >>> x-inner >>> .go"),
      c("assertText", "id=out", "inner got deep"),
      c("assertValue", "css=x-outer >>> x-inner >>> .field", "deep"),
    ],
  },
  {
    name: "types in a same-origin frame selected by id and comes back to the top",
    commands: [
      c("open", "/t/frames"),
      c("selectFrame", "id=pay"),
      c("type", "id=card", "4242"),
      c("click", "id=ok"),
      c("assertText", "id=paid", "paid 4242?pay"),
      c("selectFrame", "relative=top"),
      c("assertText", "id=top", "Top"),
    ],
  },
  {
    name: "selects a frame by index",
    commands: [
      c("open", "/t/frames"),
      c("selectFrame", "index=0"),
      c("type", "id=card", "1"),
      c("click", "id=ok"),
      c("assertText", "id=paid", "paid 1?first"),
      c("selectFrame", "relative=top"),
    ],
  },
  {
    name: "waits for a frame the page adds late",
    notExported: NO_IMPLICIT_WAIT,
    commands: [
      c("open", "/t/late-frame"),
      c("selectFrame", "id=late"),
      c("type", "id=card", "7"),
      c("click", "id=ok"),
      c("assertText", "id=paid", "paid 7?late"),
      c("selectFrame", "relative=top"),
      c("assertText", "id=top", "Top"),
    ],
  },
  {
    name: "follows a click into the window it opens, closes it and goes back",
    commands: [
      c("open", "/t/window"),
      c("storeWindowHandle", "root"),
      c("click", "id=help", "", { opensWindow: true, windowHandleName: "win_ser_1", windowTimeout: 2000 }),
      c("selectWindow", "handle=${win_ser_1}"),
      c("assertText", "id=faq", "Frequently asked"),
      c("assertTitle", "Help"),
      c("close"),
      c("selectWindow", "handle=${root}"),
      c("assertText", "id=top", "Opener"),
    ],
  },
  {
    name: "hovers a CSS :hover menu open, then clicks its item",
    notExported: LEGACY_ACTIONS,
    commands: [c("open", "/t/hover"), c("mouseOver", "id=menu"), c("click", "id=logout"), c("assertText", "id=out", "logged out")],
  },
  {
    name: "uploads a file by typing its path into a file input",
    uploadsRelative: true,
    notExported: BOTH("the path is relative to the .side file, which the exported code does not know"),
    commands: [c("open", "/t/upload"), c("type", "id=file", UPLOAD_FILE.name), c("assertText", "id=out", `${UPLOAD_FILE.name}: ${UPLOAD_FILE.content.length} bytes`)],
  },
  {
    name: "drags a draggable card onto a drop zone (HTML5 drag and drop)",
    commands: [c("open", "/t/dnd"), c("dragAndDropToObject", "id=card", "id=bin"), c("assertText", "id=out", "dropped card")],
  },
  {
    name: "reorders a list with mouse down, move and up",
    notExported: LEGACY_ACTIONS,
    commands: [
      c("open", "/t/sortable"),
      c("mouseDown", "id=a"),
      c("mouseMoveAt", "id=c", "0,0"),
      c("mouseUp", "id=c"),
      c("assertText", "id=out", "BCA"),
    ],
  },
  {
    name: "double-clicks",
    commands: [c("open", "/t/mouse"), c("doubleClick", "id=twice"), c("assertText", "id=out", "double clicked")],
  },
  {
    name: "presses and releases the mouse on an element",
    notExported: LEGACY_ACTIONS,
    commands: [c("open", "/t/mouse"), c("mouseDown", "id=pad"), c("mouseUp", "id=pad"), c("assertText", "id=out", "down up")],
  },
  {
    name: "sends Enter to an input",
    commands: [c("open", "/t/keys"), c("sendKeys", "id=search", "shoes${KEY_ENTER}"), c("assertText", "id=out", "searched shoes")],
  },
  {
    name: "sends Tab to move the focus to the next input",
    commands: [c("open", "/t/keys"), c("click", "id=first"), c("sendKeys", "id=first", "${KEY_TAB}"), c("assertText", "id=out", "second focused")],
  },
  {
    name: "sends Backspace and Left to edit a word in place",
    commands: [
      c("open", "/t/keys"),
      c("sendKeys", "id=word", "acx${KEY_BACK_SPACE}${KEY_LEFT}b"),
      c("assertValue", "id=word", "abc"),
    ],
  },
  {
    name: "moves through a list with the arrow keys",
    commands: [
      c("open", "/t/keys"),
      c("sendKeys", "id=options", "${KEY_DOWN}${KEY_DOWN}${KEY_UP}"),
      c("assertText", "id=picked", "Green"),
    ],
  },
  {
    name: "edits a contenteditable",
    commands: [c("open", "/t/editable"), c("editContent", "id=note", "new note"), c("assertText", "id=note", "new note")],
  },
  {
    name: "clicks an item out of view in a scrolling container",
    commands: [c("open", "/t/scroll"), c("click", "id=row35"), c("assertText", "id=out", "row 35")],
  },
  {
    name: "selects an option, adds and removes options of a multiple select",
    commands: [
      c("open", "/t/select"),
      c("select", "id=size", "label=Medium"),
      c("assertSelectedLabel", "id=size", "Medium"),
      c("assertSelectedValue", "id=size", "m"),
      c("addSelection", "id=toppings", "label=Cheese"),
      c("addSelection", "id=toppings", "label=Olives"),
      c("removeSelection", "id=toppings", "label=Cheese"),
      c("assertText", "id=out", "m with Olives"),
    ],
  },
  {
    name: "checks and unchecks checkboxes",
    commands: [
      c("open", "/t/checks"),
      c("check", "id=news"),
      c("uncheck", "id=terms"),
      c("check", "id=news"),
      c("assertChecked", "id=news"),
      c("assertNotChecked", "id=terms"),
      c("assertText", "id=out", "news true, terms false"),
    ],
  },
  {
    name: "waits for a button that becomes enabled late, then clicks it",
    commands: [c("open", "/t/late"), c("waitForElementEditable", "id=save", "3000"), c("click", "id=save"), c("assertText", "id=out", "saved")],
  },
  {
    name: "clicks an element that appears after a delay",
    notExported: NO_IMPLICIT_WAIT,
    commands: [c("open", "/t/late"), c("click", "id=later"), c("assertText", "id=out", "later clicked")],
  },
  {
    name: "waits for an element to become visible",
    commands: [
      c("open", "/t/late"),
      c("assertElementPresent", "id=banner"),
      c("waitForElementVisible", "id=banner", "3000"),
      c("verifyText", "id=banner", "Ready"),
    ],
  },
  {
    name: "clicks a button far below a sticky header",
    commands: [c("open", "/t/sticky"), c("click", "id=deep"), c("assertText", "id=out", "deep clicked")],
  },
  {
    name: "reads text and values, stores them and asserts with a ${variable}",
    commands: [
      c("open", "/t/text"),
      c("assertText", "id=price", "42.50 EUR"),
      c("verifyValue", "id=qty", "3"),
      c("storeText", "id=price", "price"),
      c("type", "id=copy", "${price}"),
      c("assertValue", "id=copy", "42.50 EUR"),
      c("assertNotText", "id=price", "0"),
      c("assertElementPresent", "id=hidden"),
      c("assertElementNotPresent", "id=missing"),
    ],
  },
  {
    name: "types text mixed with two stored ${variables}",
    notExported: BOTH(
      "Selenium IDE's code-export packages write a value that mixes text and ${variables} as code that does not parse, and an assertText against ${price} as the text 'vars[\"price\"]'",
    ),
    commands: [
      c("open", "/t/text"),
      c("storeText", "id=price", "price"),
      c("storeValue", "id=qty", "qty"),
      c("type", "id=copy", "${qty} x ${price}"),
      c("assertValue", "id=copy", "3 x 42.50 EUR"),
      c("assertText", "id=price", "${price}"),
    ],
  },
  {
    name: "submits a form and reads the next page",
    commands: [c("open", "/t/form"), c("type", "id=who", "Ada"), c("click", "id=send"), c("waitForElementPresent", "id=said", "3000"), c("assertText", "id=said", "thanks Ada"), c("assertTitle", "Thanks")],
  },
  {
    name: "submits a form with the submit command",
    notExported: BOTH("Selenium IDE's code-export packages have no submit (Invalid command 'submit')"),
    commands: [c("open", "/t/form"), c("type", "id=who", "Grace"), c("submit", "id=signup"), c("assertText", "id=said", "thanks Grace")],
  },
  {
    name: "follows a link and asserts the title of the page it reaches",
    commands: [c("open", "/t/links"), c("click", "id=next"), c("waitForElementPresent", "id=heading", "3000"), c("assertTitle", "Next page"), c("assertText", "id=heading", "Arrived")],
  },
  {
    name: "clicks a button once the overlay covering it goes away",
    commands: [c("open", "/t/overlay"), c("click", "id=pay"), c("assertText", "id=out", "paid")],
  },
  {
    name: "goes into a frame inside a frame, and back out one level with relative=parent",
    notExported: BOTH("Selenium IDE's code-export packages write selectFrame relative=parent as a switch to the top document"),
    commands: [
      c("open", "/t/nested-frames"),
      c("selectFrame", "id=outer"),
      c("selectFrame", "id=inner"),
      c("type", "id=card", "9"),
      c("click", "id=ok"),
      c("assertText", "id=paid", "paid 9?inner"),
      c("selectFrame", "relative=parent"),
      c("assertText", "id=middle", "Middle"),
      c("selectFrame", "relative=top"),
      c("assertText", "id=top", "Top"),
    ],
  },
  {
    name: "clicks inside a shadow root inside a frame",
    commands: [
      c("open", "/t/shadow-frame"),
      c("selectFrame", "id=shop"),
      c("click", "css=x-card >>> .buy"),
      c("assertText", "css=x-card >>> .status", "bought"),
      c("selectFrame", "relative=top"),
    ],
  },
  {
    name: "types into a field a framework controls, which sees every keystroke",
    commands: [c("open", "/t/controlled"), c("type", "id=email", "Ada@Example.org"), c("assertValue", "id=email", "ada@example.org"), c("assertText", "id=out", "state ada@example.org")],
  },
  {
    name: "runs a script that returns a value and uses it",
    commands: [
      c("open", "/t/script"),
      c("executeScript", "return document.querySelectorAll('#items li').length", "count"),
      // Selenium IDE's export writes nothing for an executeScript without a variable: this one has one.
      c("executeScript", "document.getElementById('out').textContent = 'items ' + ${count}; return true", "written"),
      c("assertText", "id=out", "items 3"),
    ],
  },
];
