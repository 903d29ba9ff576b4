// Building the page: h() makes an element with attributes, properties and
// children; text is always set as text, never parsed as HTML, so names and
// messages from the API cannot inject markup.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key in el && key !== "list" && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Replaces an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// The main area, emptied for a new screen; focus moves to its heading so a
// screen reader announces the screen.
export function screen(title, ...children) {
  const main = document.getElementById("main");
  const heading = h("h1", { tabindex: "-1" }, title);
  fill(main, heading, ...children);
  document.title = `${title} · Skitgubbe`;
  heading.focus({ preventScroll: true });
  return main;
}

// Shows the screen at `hash`. Setting the address to the one it already
// holds fires no hashchange, so then the screen is chosen again by hand.
export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

// The alert line under the header: an error or a notice, until dismissed,
// replaced or the screen changes (`survives`: not the next change, for a
// notice that explains the move to another screen).
export function notify(text, kind = "error", { survives = false } = {}) {
  const box = document.getElementById("notice");
  if (!text) {
    box.hidden = true;
    delete box.dataset.survives;
    fill(box);
    return;
  }
  box.className = `notice ${kind}`;
  if (survives) box.dataset.survives = "true";
  else delete box.dataset.survives;
  fill(box, h("span", {}, text), h("button", { type: "button", class: "link", onclick: () => notify(null) }, "Dismiss"));
  box.hidden = false;
}

// A new screen: the notice of the last one goes, unless it was meant to
// explain the change.
export function screenChanged() {
  const box = document.getElementById("notice");
  if (box.dataset.survives) delete box.dataset.survives;
  else notify(null);
}

export function seconds(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
