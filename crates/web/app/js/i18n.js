// The page's words in the reader's language: the choice kept in this
// browser (and, when signed in, with the account), else the browser's
// languages (navigator.languages, what it sends as Accept-Language), else
// English. Each language's words are /i18n/<tag>.json, with the same keys;
// an element with data-i18n="key" shows the word for key (data-i18n-attr
// names an attribute to fill instead of the text).

export const LANGUAGES = { en: "English", sv: "Svenska", fi: "Suomi", nb: "Norsk bokmål" };
const KEY = "skitgubbe.language";
let words = {};
let english = {};

// The tag of a BCP 47 language tag that the page speaks, or null.
export function supported(tag) {
  const primary = String(tag || "").toLowerCase().split(/[-_]/)[0];
  if (primary === "no") return "nb";
  return primary in LANGUAGES ? primary : null;
}

export function language() {
  const chosen = supported(localStorage.getItem(KEY));
  if (chosen) return chosen;
  for (const tag of navigator.languages || [navigator.language]) {
    const found = supported(tag);
    if (found) return found;
  }
  return "en";
}

async function load(tag) {
  const response = await fetch(`/i18n/${tag}.json`);
  return response.ok ? response.json() : {};
}

// Loads the words of the current language (and English, for any word
// missing) and shows them on the page.
export async function start() {
  const tag = language();
  english = await load("en");
  words = tag === "en" ? english : await load(tag);
  document.documentElement.lang = tag;
  translate(document);
}

// The word for key, with {name} filled from args.
export function t(key, args = {}) {
  const text = words[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(args[name] ?? ""));
}

export function translate(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const attr = el.dataset.i18nAttr;
    if (attr) el.setAttribute(attr, t(el.dataset.i18n));
    else el.textContent = t(el.dataset.i18n);
  }
}

// Keeps the person's choice here, and with the account when signed in
// (save posts it), then shows the page in it.
export async function choose(tag, save) {
  const chosen = supported(tag);
  if (!chosen) return;
  localStorage.setItem(KEY, chosen);
  if (save) await save(chosen).catch(() => {});
  await start();
}

// Takes the account's stored choice (WhoAmI's language) if it has one.
export async function adopt(tag) {
  const chosen = supported(tag);
  if (!chosen || chosen === supported(localStorage.getItem(KEY))) return;
  localStorage.setItem(KEY, chosen);
  await start();
}
