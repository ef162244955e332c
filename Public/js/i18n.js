// The interface's texts for scripts, in the page's language: the server puts the catalogue's
// `js.*` entries into <script id="ui-text">. `{name}` marks are filled from `values`.

let texts = null;

function catalogue() {
  if (texts) return texts;
  try {
    texts = JSON.parse(document.getElementById("ui-text")?.textContent || "{}");
  } catch {
    texts = {};
  }
  return texts;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The text for `key` (without its "js." prefix). */
export function t(key, values = {}) {
  const entry = catalogue()[key];
  if (typeof entry !== "string") return key;
  return fill(entry, values);
}

/** The form of `key` that agrees with `count` in the page's language. */
export function tn(key, count, values = {}) {
  const entry = catalogue()[key];
  if (!entry || typeof entry !== "object") return key;
  const category = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
  const form = entry[category] ?? entry.other ?? entry.many ?? "";
  return fill(form, { count, ...values });
}
