// A page whose menu opens on CSS :hover (CONTRACT section 19, selenium-ide #362 and #860): the
// recorder's browser test records on it and the host's WebDriver test plays on it. Its Save item
// is hidden until the pointer is over #menu; a submenu under #more opens on its own :hover.
export const HOVER_MENU_PAGE = `<!doctype html><html><head><title>Menu</title><style>
  #menu { display: inline-block; padding: 8px; }
  #menu .items { display: none; margin: 0; }
  #menu:hover .items { display: block; }
  #more .sub { visibility: hidden; }
  #more:hover > .sub { visibility: visible; }
  #menu:hover .label { color: red; }
</style></head><body>
  <div id="menu"><span class="label">File</span>
    <ul class="items">
      <li><button id="save" type="button" onclick="document.getElementById('out').textContent = 'saved'">Save</button></li>
      <li id="more">More
        <ul class="sub"><li><button id="export" type="button" onclick="document.getElementById('out').textContent = 'exported'">Export</button></li></ul>
      </li>
    </ul>
  </div>
  <button id="plain" type="button" onclick="document.getElementById('out').textContent = 'plain'">Plain</button>
  <p id="out"></p>
</body></html>`;
