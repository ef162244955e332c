// Enhancements shared by every page. Pages work without this file.
import { t } from "./i18n.js";

// The offline page (served by the service worker, the same for everyone) speaks the language
// of the last page seen.
try {
  localStorage.setItem("ui-language", document.documentElement.lang || "en");
} catch {
  // Storage may be unavailable (private mode); the offline page then follows the browser.
}

// "Copy" buttons copy the text of the element named by data-copy-target.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy-target]");
  if (!button) return;
  const target = document.getElementById(button.dataset.copyTarget);
  if (!target) return;
  try {
    await navigator.clipboard.writeText(target.textContent.trim());
    const label = button.textContent;
    button.textContent = t("app.copied");
    setTimeout(() => { button.textContent = label; }, 2000);
  } catch {
    // Clipboard access can be refused; selecting the text lets the user copy by hand.
    const range = document.createRange();
    range.selectNodeContents(target);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
});

// Escape closes an open confirmation without acting.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  for (const details of document.querySelectorAll("details.confirm[open]")) {
    details.open = false;
    details.querySelector("summary")?.focus();
  }
});
