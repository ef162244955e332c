// The server's product rules, checked on the device: the form page carries them as data (the
// limits and messages of Core's ProductRules, in #product-rules), so an offline save refuses
// what the server would refuse, with the server's words. It refuses only what it is sure of:
// an amount written in a way it cannot read for certain ("12.345", "1,234.5" in some locales)
// is left for the server to judge when the product is uploaded.

const SPACE = /\p{White_Space}/u;

function trimmed(text) {
  return String(text ?? "").replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
}

function nothingVisible(text) {
  return [...text].every((c) => SPACE.test(c) || /\p{Cc}/u.test(c));
}

function length(text) {
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;
  }
  return null; // Without grapheme counting the length is not certain.
}

function checkText(value, rule) {
  const text = trimmed(value);
  if (nothingVisible(text)) return rule.blank;
  const count = length(text);
  if (count !== null && count > rule.max) return rule.tooLong;
  if (/\p{Cc}/u.test(text)) return rule.control;
  return null;
}

/** `text` as an exact decimal string ("-12.5"), "" when blank, or null when not certain. */
export function readAmount(text, sheet) {
  let value = trimmed(text);
  if (!value) return "";
  value = value.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 48));
  value = value.replace(/\p{White_Space}/gu, "");
  const mark = sheet.decimalSeparator;
  const escaped = mark.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = value.match(new RegExp(`^(-?)(\\d+)(?:${escaped}(\\d+))?$`));
  if (!match) return null;
  const [, sign, whole, fraction = ""] = match;
  // Exactly three digits after one mark may be grouping in another locale: the server asks.
  if (fraction.length === 3) return null;
  return `${sign}${whole}${fraction ? "." + fraction : ""}`;
}

function scaled(decimal, places) {
  const negative = decimal.startsWith("-");
  const [whole, fraction = ""] = decimal.replace("-", "").split(".");
  const digits = BigInt(whole + fraction.padEnd(places, "0").slice(0, places));
  return negative ? -digits : digits;
}

function compare(a, b) {
  const places = Math.max((a.split(".")[1] || "").length, (b.split(".")[1] || "").length);
  const x = scaled(a, places);
  const y = scaled(b, places);
  return x < y ? -1 : x > y ? 1 : 0;
}

function checkAmount(text, rule, sheet) {
  const value = readAmount(text, sheet);
  if (value === "") return rule.missing;
  if (value === null) return null;
  // In the server's order: too many decimals is found while reading the number, then the range.
  if ((value.split(".")[1] || "").length > rule.fractionDigits) return rule.tooPrecise;
  const low = compare(value, rule.min);
  const high = compare(value, rule.max);
  if (rule.minInclusive ? low < 0 : low <= 0) return rule.tooLow;
  if (rule.maxInclusive ? high > 0 : high >= 0) return rule.tooHigh;
  return null;
}

/** The message for each field of `values` the server would refuse ({} when none). */
export function checkProduct(values, sheet) {
  const problems = {
    name: checkText(values.name, sheet.name),
    type: checkText(values.type, sheet.type),
    price: checkAmount(values.price, sheet.price, sheet),
    tax: checkAmount(values.tax, sheet.tax, sheet),
  };
  return Object.fromEntries(Object.entries(problems).filter(([, message]) => message));
}

/** The sheet the page carries, or null on a page without one. */
export function pageRules() {
  try {
    const node = document.getElementById("product-rules");
    return node ? JSON.parse(node.textContent) : null;
  } catch {
    return null;
  }
}
