// Live feedback for the expense form, as in the original app. The server renders every
// message and the amount rule (data-* attributes) and checks everything again on save, so
// the form works without this file.

const form = document.querySelector("form[data-expense-form]");
if (form) enhance(form);
if (form) checkReceipts(form);

// A receipt photo over the size limit is named before the form is sent, so a phone does not
// upload megabytes only to be told so. The server checks every file again.
function checkReceipts(form) {
  const input = form.querySelector("#field-receipts");
  if (!input) return;
  const max = Number(input.dataset.maxBytes) || 0;
  input.addEventListener("change", () => {
    const large = Array.from(input.files || []).filter((file) => max > 0 && file.size > max);
    input.setCustomValidity(
      large.length ? `${large.map((file) => file.name).join(", ")}: ${input.dataset.tooLarge}` : "",
    );
    if (large.length) input.reportValidity();
  });
}

// The list's filters are folded on a phone, so the list is the first thing there; a wider
// screen has room to show them open.
const fold = document.querySelector("details[data-wide-open]");
if (fold && window.matchMedia("(min-width: 601px)").matches) fold.open = true;

function enhance(form) {
  const title = form.querySelector("#field-title");
  const titleFeedback = form.querySelector("#field-title-feedback");
  const titleCount = form.querySelector("#field-title-count");
  const amount = form.querySelector("#field-amount");
  const amountFeedback = form.querySelector("#field-amount-feedback");
  const toggle = form.querySelector("[data-date-toggle]");
  const picker = form.querySelector("[data-date-picker]");
  const date = form.querySelector("#field-date");
  const save = form.querySelector("[data-save]");
  if (!title || !amount || !save) return;

  const messages = {
    titleMissing: form.dataset.titleMissing,
    amountMissing: form.dataset.amountMissing,
    approved: form.dataset.approved,
  };
  const maxLength = Number(title.dataset.maxLength) || 15;
  const amountRule = new RegExp(amount.dataset.pattern, "u");

  // Count what a person sees as one character (an emoji, a letter with an accent).
  const segmenter =
    typeof Intl !== "undefined" && "Segmenter" in Intl
      ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
      : null;
  const characters = (text) =>
    segmenter ? Array.from(segmenter.segment(text), (part) => part.segment) : Array.from(text);

  // A field keeps the server's message (e.g. after a refused save) until it is edited.
  const edited = { title: false, amount: false };

  function show(element, text, ok) {
    if (!element) return;
    element.textContent = text;
    element.classList.toggle("feedback-ok", ok);
    element.classList.toggle("feedback-error", !ok);
  }

  function titleValid() {
    return title.value.trim() !== "";
  }

  function amountValid() {
    return amount.value.trim() !== "";
  }

  function dateValid() {
    return !toggle || !toggle.checked || (date && date.value !== "");
  }

  function refresh() {
    if (edited.title) {
      show(titleFeedback, titleValid() ? messages.approved : messages.titleMissing, titleValid());
      title.removeAttribute("aria-invalid");
    }
    if (edited.amount) {
      show(
        amountFeedback,
        amountValid() ? messages.approved : messages.amountMissing,
        amountValid(),
      );
      amount.removeAttribute("aria-invalid");
    }
    if (titleCount) titleCount.textContent = `${characters(title.value).length}/${maxLength}`;
    save.disabled = !(titleValid() && amountValid() && dateValid());
  }

  // Typing past the limit is cut back to it, as the original did.
  title.addEventListener("input", () => {
    const parts = characters(title.value);
    if (parts.length > maxLength) {
      title.value = parts.slice(0, maxLength).join("");
    }
    edited.title = true;
    refresh();
  });

  // A keystroke that breaks the amount rule is undone, leaving the previous text.
  let previous = amount.value;
  amount.addEventListener("input", () => {
    if (amountRule.test(amount.value)) {
      previous = amount.value;
    } else {
      const caret = Math.max(0, (amount.selectionStart ?? previous.length) - 1);
      amount.value = previous;
      amount.setSelectionRange(Math.min(caret, previous.length), Math.min(caret, previous.length));
    }
    edited.amount = true;
    refresh();
  });

  function syncDate() {
    if (!toggle || !picker) return;
    picker.hidden = !toggle.checked;
    if (date) {
      date.required = toggle.checked;
      if (toggle.checked && date.value === "" && date.dataset.now) date.value = date.dataset.now;
    }
  }
  toggle?.addEventListener("change", () => {
    syncDate();
    refresh();
    if (toggle.checked) date?.focus();
  });
  date?.addEventListener("input", refresh);

  syncDate();
  refresh();
}
