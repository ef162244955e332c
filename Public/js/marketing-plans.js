// Marketing plans: the pages work with plain form posts; this makes them smoother.
// - Choices (targets, packages, reset, remove) are posted in the background and the page's
//   main content is replaced, so the list keeps its scroll position and focus.
// - On the review step the recipient and subject are saved as they are typed (through the
//   JSON API) and the mail link, its "shortened" note and the summary follow.
// - Every form carries the plan's version. A choice made on a plan that changed meanwhile is
//   answered 409 with the plan as it is now, which is swapped in like any other answer; the
//   email autosave sends the version in If-Match and, after a save, moves every form on to the
//   new one.
// - "Copy summary" and "Print" appear only when scripts run.

import { t } from "./i18n.js";

const main = () => document.getElementById("main");

function csrfOf(form) {
  return form.querySelector('input[name="_csrf"]')?.value ?? "";
}

// ---------------------------------------------------------------- background form posts

document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  if (form.hasAttribute("data-mk-busy")) {
    const button = form.querySelector("button");
    if (button) {
      button.setAttribute("aria-busy", "true");
      button.textContent = form.dataset.mkBusy;
    }
    return; // a normal post: the refresh can take several seconds and ends on a new page
  }
  if (!form.hasAttribute("data-mk-swap")) return;
  event.preventDefault();
  const button = event.submitter ?? form.querySelector("button");
  const focusID = button?.id;
  form.closest("li")?.classList.add("mk-busy");
  button?.setAttribute("aria-busy", "true");
  try {
    // Email details still being saved move the plan's version on: wait for them, so this
    // post carries the version they leave.
    const emailForm = document.getElementById("mk-email-form");
    if (emailForm) await flush(emailForm).catch(() => false);
    await saving.catch(() => false);
    const response = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { "Accept": "text/html" },
      credentials: "same-origin",
    });
    // 409: the plan changed meanwhile; the answer is the page as it is now, with a notice.
    const shown = response.ok || response.status === 409;
    if (!shown || !response.headers.get("content-type")?.includes("text/html")) {
      throw new Error(`status ${response.status}`);
    }
    const html = await response.text();
    const next = new DOMParser().parseFromString(html, "text/html");
    const content = next.getElementById("main");
    if (!content) throw new Error("no main content");
    main().replaceChildren(...content.childNodes);
    document.title = next.title;
    const url = new URL(response.url);
    history.replaceState(null, "", url.pathname + url.search);
    (focusID && document.getElementById(focusID))?.focus({ preventScroll: true });
    enhance();
  } catch {
    // Let the browser do it the plain way.
    form.submit();
  }
});

// ---------------------------------------------------------------- email details

let pending = null;
// The email saves one after another: each sends the version the one before it left.
let saving = Promise.resolve(true);

function showFieldError(name, message) {
  const input = document.getElementById(`field-${name}`);
  const slot = document.getElementById(`field-${name}-error`);
  if (!input || !slot) return;
  slot.textContent = message ?? "";
  slot.hidden = !message;
  input.closest(".field")?.classList.toggle("field-invalid", Boolean(message));
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

// The plan's version as the page's forms carry it.
function pageVersion(form) {
  return form.querySelector('input[name="version"]')?.value ?? "";
}

function setPageVersion(version) {
  for (const input of document.querySelectorAll('#main input[name="version"]')) {
    input.value = String(version);
  }
}

function showConflict(message) {
  const slot = document.getElementById("mk-email-conflict");
  if (!slot) return;
  slot.textContent = message ?? "";
  slot.hidden = !message;
}

async function saveEmail(form) {
  const recipient = form.querySelector('[name="recipient"]').value;
  const subject = form.querySelector('[name="subject"]').value;
  const saved = await fetch(form.dataset.api, {
    method: "PATCH",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      "Accept": "application/json",
      "X-CSRF-Token": csrfOf(form),
      "If-Match": `"${pageVersion(form)}"`,
    },
    body: JSON.stringify({ recipient, subject }),
  });
  if (saved.status === 412) {
    // Someone changed the plan meanwhile: nothing was saved and what was typed stays; the
    // "Save email details" button then shows both versions side by side.
    showConflict(t("marketing.email.autosave_conflict"));
    return false;
  }
  if (saved.status === 422) {
    const fields = (await saved.json())?.error?.fields ?? {};
    showFieldError("recipient", fields.recipient);
    showFieldError("subject", fields.subject);
    return false;
  }
  if (!saved.ok) return false;
  showConflict(null);
  const plan = await saved.json();
  if (plan?.version) setPageVersion(plan.version);
  showFieldError("recipient", null);
  showFieldError("subject", null);
  const answer = await fetch(form.dataset.summary, {
    credentials: "same-origin",
    headers: { "Accept": "application/json" },
  });
  if (!answer.ok) return false;
  const summary = await answer.json();
  const link = document.getElementById("mk-mailto");
  if (link) link.href = summary.mailto.url;
  const note = document.getElementById("mk-mailto-note");
  if (note) {
    const omitted = summary.mailto.omitted_packages;
    note.textContent = summary.mailto.shortened
      ? note.dataset.template?.replace("{n}", omitted) ??
        t("marketing.email.mailto_shortened_short", { omitted })
      : "";
    note.hidden = !summary.mailto.shortened;
  }
  const text = document.getElementById("mk-summary-text");
  if (text) {
    text.value = summary.text;
    text.textContent = summary.text;
  }
  return true;
}

function queueSave(form) {
  saving = saving.catch(() => false).then(() => saveEmail(form));
  return saving;
}

function flush(form) {
  if (pending === null) return saving;
  clearTimeout(pending);
  pending = null;
  return queueSave(form);
}

function enhanceEmail() {
  const form = document.getElementById("mk-email-form");
  if (!form || form.dataset.enhanced) return;
  form.dataset.enhanced = "1";
  form.addEventListener("input", () => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      pending = null;
      queueSave(form);
    }, 500);
  });
  // A click right after typing waits for the save, so the link carries what was typed.
  for (const id of ["mk-mailto", "mk-download"]) {
    document.getElementById(id)?.addEventListener("click", async (event) => {
      if (pending === null) return;
      event.preventDefault();
      const target = event.currentTarget;
      if (await flush(form)) window.location.href = target.href;
    });
  }
}

// ---------------------------------------------------------------- copy and print

function enhance() {
  for (const id of ["mk-copy", "mk-print"]) {
    const button = document.getElementById(id);
    if (button) button.hidden = false;
  }
  document.getElementById("mk-print")?.addEventListener("click", () => window.print());
  enhanceEmail();
}

enhance();
