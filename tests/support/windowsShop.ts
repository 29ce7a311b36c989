// What the recording-across-windows tests of the extension and of the host share (CONTRACT
// section 19): a shop whose link opens a help tab, and the commands v3 records for a click on
// that link, a click in the help tab, closing it and a click back in the shop.

export const WINDOWS_SHOP = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<a id="help" href="/help" target="_blank">Help</a>
<button id="buy" type="button" onclick="document.getElementById('result').textContent = 'bought'">Buy</button>
<p id="result"></p>
</body></html>`;
export const WINDOWS_HELP = `<!doctype html><html><head><meta charset="utf-8"><title>Help</title></head><body>
<button id="faq" type="button" onclick="document.getElementById('answer').textContent = 'answered'">FAQ</button>
<p id="answer"></p>
</body></html>`;
export const WINDOWS_ELSEWHERE = "<!doctype html><title>Elsewhere</title><p>Elsewhere</p>";

/** What follows the click on the shop's help link, as `command target` (v3's form). */
export const AFTER_HELP_CLICK = [
  "storeWindowHandle win_ser_local",
  "selectWindow handle=${win_ser_1}",
  "click id=faq",
  "close",
  "selectWindow handle=${win_ser_local}",
  "click id=buy",
];
