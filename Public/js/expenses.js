// Live feedback for the expense form, as in the original app. The server renders every
// message and the amount rule (data-* attributes) and checks everything again on save, so
// the form works without this file.

const form = document.querySelector("form[data-expense-form]");
if (form) enhance(form);
if (form) checkReceipts(form);

// The list's filters are folded on a phone, so the list is the first thing there; a wider
// screen has room to show them open.
const fold = document.querySelector("details[data-wide-open]");
if (fold && window.matchMedia("(min-width: 601px)").matches) fold.open = true;

// A receipt photo over the size limit (a phone's camera easily takes one) is made smaller here,
// as a JPEG of at most 2400 px, before the form is sent; one that still does not fit is named
// before anything is uploaded. The server checks every file again.
function checkReceipts(form) {
  const input = form.querySelector("#field-receipts");
  if (!input) return;
  const max = Number(input.dataset.maxBytes) || 0;
  const save = form.querySelector("[data-save]");
  input.addEventListener("change", async () => {
    const files = Array.from(input.files || []);
    input.setCustomValidity("");
    if (!max || !files.some((file) => file.size > max)) return;
    const wasDisabled = save ? save.disabled : false;
    if (save) save.disabled = true;
    const shrunk = await Promise.all(files.map((file) => shrink(file, max).catch(() => file)));
    if (typeof DataTransfer === "function") {
      const transfer = new DataTransfer();
      shrunk.forEach((file) => transfer.items.add(file));
      input.files = transfer.files;
    }
    if (save) save.disabled = wasDisabled;
    const large = Array.from(input.files || []).filter((file) => file.size > max);
    input.setCustomValidity(
      large.length ? `${large.map((file) => file.name).join(", ")}: ${input.dataset.tooLarge}` : "",
    );
    if (large.length) input.reportValidity();
  });
}

// The photo as a JPEG small enough for `max` bytes, or the file itself when it fits already or
// cannot be read as a picture here.
async function shrink(file, max) {
  if (file.size <= max || !/^image\/(jpeg|png)$/.test(file.type) || !window.createImageBitmap) {
    return file;
  }
  const bitmap = await createImageBitmap(file);
  let scale = Math.min(1, 2400 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  for (const quality of [0.85, 0.75, 0.6, 0.5]) {
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff"; // a PNG's transparent parts, on white as on paper
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((done) => canvas.toBlob(done, "image/jpeg", quality));
    if (blob && blob.size <= max) {
      const name = file.name.replace(/\.[A-Za-z0-9]+$/, "") + ".jpg";
      return new File([blob], name, { type: "image/jpeg", lastModified: file.lastModified });
    }
    scale *= 0.8;
  }
  return file;
}

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
