// A checkout page built of nested open shadow roots, for the tests of css=A >>> B: <x-checkout>
// holds a card field, a Pay button and an <x-summary> whose own shadow root shows the total,
// which Pay sets to the length of the card's value.

/** The custom elements' script; `cardField` is the field's HTML inside x-checkout's shadow root (class "card"). */
export function shadowCheckoutScript(cardField = '<input class="card">'): string {
  return `<script>
    customElements.define("x-summary", class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: "open" }).innerHTML = '<p>Total: <span class="total">0</span></p>';
      }
    });
    customElements.define("x-checkout", class extends HTMLElement {
      constructor() {
        super();
        const root = this.attachShadow({ mode: "open" });
        root.innerHTML = '${cardField}<button class="pay">Pay</button><x-summary></x-summary>';
        root.querySelector(".pay").addEventListener("click", () => {
          root.querySelector("x-summary").shadowRoot.querySelector(".total").textContent = String(root.querySelector(".card").value.length);
        });
      }
    });
  </script>`;
}
