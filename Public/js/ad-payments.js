// Ad payments: live checks on the add/edit form and search-as-you-type on the list.
// Both pages work without this file; the server stays the authority on every rule.

import { t, tn } from "./i18n.js";

const DEBOUNCE_MS = 300;

function debounce(fn, wait) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
}

// ---------------------------------------------------------------- form

// The form asks the server (GET data-check-url) what saving would say: the same messages as
// on submit, and the other entries with the same link. A field's message appears once the
// person has left that field, so nobody is scolded for a field they have not reached yet.
function enhanceForm(form) {
  const checkURL = form.dataset.checkUrl;
  const entryID = form.dataset.entryId || "";
  const fields = ["name", "url"];
  const touched = new Set();
  for (const field of fields) {
    const error = document.getElementById(`field-${field}-error`);
    if (error && error.textContent.trim() !== "") touched.add(field);
  }
  let sequence = 0;

  function showError(field, message) {
    const input = document.getElementById(`field-${field}`);
    const slot = document.getElementById(`field-${field}-error`);
    if (!input || !slot) return;
    const wrapper = input.closest(".field");
    slot.textContent = message || "";
    slot.hidden = !message;
    wrapper?.classList.toggle("field-invalid", Boolean(message));
    const described = (input.getAttribute("aria-describedby") || "")
      .split(" ").filter((id) => id && id !== slot.id);
    if (message) {
      input.setAttribute("aria-invalid", "true");
      described.push(slot.id);
    } else {
      input.removeAttribute("aria-invalid");
    }
    if (described.length) input.setAttribute("aria-describedby", described.join(" "));
    else input.removeAttribute("aria-describedby");
  }

  function showDuplicates(others) {
    const box = document.getElementById("ad-payment-duplicate");
    if (!box) return;
    box.replaceChildren();
    if (!others || others.length === 0) {
      box.hidden = true;
      return;
    }
    const first = others[0];
    const paragraph = document.createElement("p");
    const link = document.createElement("a");
    link.href = first.href;
    link.textContent = t("ad_payments.quoted_name", { name: first.name });
    // The sentence as the server writes it, with the link where its {link} mark is.
    const sentence = others.length > 1
      ? tn("ad_payments.duplicate.saved_as_more", others.length - 1)
      : t("ad_payments.duplicate.saved_as");
    const mark = sentence.indexOf("{link}");
    if (mark < 0) {
      paragraph.append(sentence, " ", link);
    } else {
      paragraph.append(sentence.slice(0, mark), link, sentence.slice(mark + "{link}".length));
    }
    box.append(paragraph);
    box.hidden = false;
  }

  async function check() {
    const current = ++sequence;
    const params = new URLSearchParams({
      name: form.elements.name.value,
      url: form.elements.url.value,
    });
    if (entryID) params.set("id", entryID);
    let result;
    try {
      const response = await fetch(`${checkURL}?${params}`, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      if (!response.ok) return;
      result = await response.json();
    } catch {
      return; // Offline or signed out: the server checks again on submit.
    }
    if (current !== sequence) return; // A newer answer is on its way.
    for (const field of fields) {
      if (touched.has(field)) showError(field, result.fields?.[field]);
    }
    if (touched.has("url")) showDuplicates(result.same_url);
  }

  const checkSoon = debounce(check, DEBOUNCE_MS);

  form.addEventListener("focusout", (event) => {
    const name = event.target?.name;
    if (!fields.includes(name)) return;
    touched.add(name);
    check();
  });
  form.addEventListener("input", (event) => {
    const name = event.target?.name;
    // Once a field shows a message, it clears (or changes) as the person fixes it.
    if (touched.has(name)) checkSoon();
  });
}

// ---------------------------------------------------------------- list

// Typing in the search box fetches the list page for that search and swaps in its results,
// so the page works the same with or without scripts (and the address stays shareable).
function enhanceSearch(searchForm) {
  const input = searchForm.querySelector('input[name="q"]');
  const results = document.getElementById("ad-payment-results");
  if (!input || !results) return;
  let sequence = 0;

  async function search() {
    const current = ++sequence;
    const url = new URL(searchForm.action, window.location.href);
    const query = input.value.trim();
    if (query) url.searchParams.set("q", query);
    let html;
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) return;
      html = await response.text();
    } catch {
      return;
    }
    if (current !== sequence) return;
    const next = new DOMParser().parseFromString(html, "text/html");
    const fresh = next.getElementById("ad-payment-results");
    if (!fresh) return;
    results.replaceChildren(...fresh.childNodes);
    window.history.replaceState(null, "", url.pathname + url.search);
  }

  input.addEventListener("input", debounce(search, DEBOUNCE_MS));
}

const form = document.getElementById("ad-payment-form");
if (form && form.dataset.checkUrl) enhanceForm(form);

const searchForm = document.getElementById("ad-payment-search");
if (searchForm) enhanceSearch(searchForm);
