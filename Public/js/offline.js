// The offline page holds its text in both interface languages and shows the one of the last
// page seen (stored by app.js), else the browser's.
let language = "en";
try {
  language = localStorage.getItem("ui-language") || "";
} catch {
  language = "";
}
if (!language) language = (navigator.language || "en").toLowerCase().startsWith("uk") ? "uk" : "en";

function show() {
  const blocks = document.querySelectorAll("[data-language]");
  if (![...blocks].some((block) => block.dataset.language === language)) return;
  for (const block of blocks) block.hidden = block.dataset.language !== language;
  document.documentElement.lang = language;
  if (language === "uk") document.title = "Офлайн · Backoffice";
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
else show();
