// The progress page of a CSV import: asks the server for the job's status every second and
// moves the bar, then loads the page once more to show the result. Without this file the page
// reloads itself (a <noscript> refresh), so it works either way.

const POLL_MS = 1000;

const box = document.querySelector("[data-import-status]");
if (box) follow(box);

async function follow(box) {
  const url = box.dataset.importStatus;
  const bar = box.querySelector("progress");
  const text = box.querySelector("[data-import-text]");
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    let status;
    try {
      const response = await fetch(url, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        cache: "no-store",
      });
      // Signed out or the job is gone: the page as it is stays; a reload explains.
      if (response.status === 404 || response.status === 401) return;
      if (!response.ok) continue;
      status = await response.json();
    } catch {
      continue; // offline for a moment: try again
    }
    if (bar) {
      bar.max = Math.max(1, status.total);
      bar.value = status.done;
      bar.textContent = `${status.percent}%`;
    }
    if (text) text.textContent = status.text;
    if (status.status !== "running") {
      window.location.reload();
      return;
    }
  }
}
