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

// ------------------------------------------------------------------ offline

const page = document.body?.dataset ?? {};
const locale = page.locale || document.documentElement.lang || "en";
const loadedAt = new Date();

/** Set (to when it was stored) when the service worker served this page from its copy. */
export const offlineCopy = document.documentElement.dataset.offlineCopy;

// Every signed-in page registers the service worker, so the app works offline from the first
// page after signing in; the worker stores the products pages at once.
if (page.serviceWorker && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(page.serviceWorker).catch(() => {
    // Without a service worker the pages still work online; only offline use is missing.
  });
  navigator.serviceWorker.ready
    // A viewer's browser is never given the Add form (403), so it is not asked for.
    .then((registration) => registration.active?.postMessage({ type: "warm", forms: page.role !== "viewer" }))
    .catch(() => {});
}

/** "14:05" today, "25 Nov, 14:05" another day, in the account's locale. */
export function shortTime(date) {
  const today = new Date().toDateString() === date.toDateString();
  const options = today
    ? { hour: "2-digit", minute: "2-digit" }
    : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  try {
    return new Intl.DateTimeFormat(locale, options).format(date);
  } catch {
    return date.toLocaleString();
  }
}

/**
 * The bar at the top of a page that is not live: "Offline — showing your copy from 14:05".
 * `null` removes it.
 */
export function setOfflineBar(text, { reload = false } = {}) {
  let bar = document.getElementById("offline-bar");
  if (text === null) {
    bar?.remove();
    return;
  }
  if (!bar) {
    bar = document.createElement("div");
    bar.id = "offline-bar";
    bar.className = "offline-bar";
    bar.setAttribute("role", "status");
    const main = document.getElementById("main");
    main?.parentNode.insertBefore(bar, main);
  }
  const message = document.createElement("span");
  message.textContent = text;
  const parts = [message];
  if (reload) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-button";
    button.textContent = t("app.offline.reload");
    button.addEventListener("click", () => location.reload());
    parts.push(button);
  }
  bar.replaceChildren(...parts);
}

function copyTime() {
  const stored = offlineCopy ? new Date(offlineCopy) : null;
  return stored && !Number.isNaN(stored.getTime()) ? stored : loadedAt;
}

/** Pages other than the products area are read-only copies offline: their buttons wait. */
function holdWrites(hold) {
  if (document.querySelector(".products-page, .product-form-page")) return;
  for (const form of document.querySelectorAll("main form[method='post']")) {
    for (const button of form.querySelectorAll("button, input[type='submit']")) {
      if (hold) {
        button.dataset.offlineHeld = "yes";
        button.disabled = true;
        button.title = t("app.offline.needs_connection");
      } else if (button.dataset.offlineHeld === "yes") {
        delete button.dataset.offlineHeld;
        button.disabled = false;
        button.removeAttribute("title");
      }
    }
  }
}

// The products pages say how old their catalog copy is themselves (products.js).
const ownBar = () => !document.querySelector(".products-page, .product-form-page");

if (offlineCopy !== undefined) {
  if (ownBar()) setOfflineBar(t("app.offline.copy", { time: shortTime(copyTime()) }));
  holdWrites(true);
}
window.addEventListener("offline", () => {
  if (ownBar()) setOfflineBar(t("app.offline.copy", { time: shortTime(copyTime()) }));
  holdWrites(true);
});
window.addEventListener("online", () => {
  if (offlineCopy !== undefined) {
    // Still the stored copy: a reload brings the live page.
    if (ownBar()) setOfflineBar(t("app.offline.back"), { reload: true });
  } else {
    if (ownBar()) setOfflineBar(null);
    holdWrites(false);
  }
});

// The device's copy of the catalog is kept up to date from every signed-in page, so the
// products work offline even when they were not opened before the network went away.
const SYNC_EVERY_MS = 5 * 60 * 1000;

export const catalog =
  page.account && page.catalogApi && "indexedDB" in window
    ? import("./catalog.js")
        .then(({ Catalog, forgetOtherAccounts }) => {
          forgetOtherAccounts(page.account);
          return new Catalog({ account: page.account, api: page.catalogApi, format: page.catalogFormat });
        })
        .catch(() => null)
    : Promise.resolve(null);

let syncing = null;
let again = false;
let thumbnailsTried = false;

/** Syncs the copy now (one sync at a time; a request during one runs another after it). */
export async function syncCatalog() {
  const copy = await catalog;
  // Offline the sync would only fail; `online` starts it again.
  if (!copy || !navigator.onLine) return;
  if (syncing) {
    again = true;
    return syncing;
  }
  syncing = (async () => {
    do {
      again = false;
      try {
        const applied = await copy.sync();
        // Thumbnails once a page (what failed last time is tried again) and after changes.
        if (applied > 0 || !thumbnailsTried) {
          thumbnailsTried = true;
          copy.fillThumbnails().catch(() => {});
        }
      } catch {
        // Offline or the server is away: the next chance is the next page, `online` or timer.
      }
    } while (again);
  })();
  try {
    await syncing;
  } finally {
    syncing = null;
  }
}

catalog.then(async (copy) => {
  if (!copy) return;
  await syncCatalog();
  // Ready for a cold start offline: the catalog is here, and the worker has the pages.
  if ("serviceWorker" in navigator && page.serviceWorker) {
    await Promise.race([
      navigator.serviceWorker.ready,
      new Promise((resolve) => setTimeout(resolve, 10000)),
    ]);
  }
  if ((await copy.state()) !== null) document.documentElement.dataset.offlineReady = "yes";
  window.addEventListener("online", () => syncCatalog());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") syncCatalog();
  });
  setInterval(() => {
    if (document.visibilityState === "visible") syncCatalog();
  }, SYNC_EVERY_MS);
});
