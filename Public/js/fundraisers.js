// Fundraisers: the live poster preview (drag and zoom the photo with mouse, touch or keys),
// template thumbnails that follow the typed text, the format switch and "Download PNG".
// Every page works without this file: the form posts, posters are plain <img> and SVG links.
//
// How the preview is drawn: the server renders the poster SVG (the source of truth) and this
// script places it into the page. Text, template, format and the progress switch ask the
// server again (debounced). Moving and zooming the photo only change the <image> element's
// transform, with the same matrix the server writes, so dragging never waits for the network.

import { t } from "./i18n.js";

const XLINK = "http://www.w3.org/1999/xlink";

const form = document.getElementById("fr-form");
if (form) setUpForm(form);

const pngButton = document.getElementById("fr-png");
if (pngButton) setUpPoster(pngButton);

const reportPngButtons = document.querySelectorAll("button[data-report-png]");
if (reportPngButtons.length > 0) setUpReportPosters(reportPngButtons);

function debounce(fn, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

function round(value) {
  return Math.round(value * 100) / 100;
}

// ------------------------------------------------------------------ form

function setUpForm(form) {
  const preview = document.getElementById("fr-preview");
  const zoomBar = document.getElementById("fr-zoom");
  const fields = {
    scale: document.getElementById("fr-scale"),
    x: document.getElementById("fr-offset-x"),
    y: document.getElementById("fr-offset-y"),
  };
  // The limits come from the server (Core's ImagePlacement), not from a copy here.
  const limits = {
    min: Number(form.dataset.minScale) || 0.1,
    max: Number(form.dataset.maxScale) || 10,
    side: Number(form.dataset.referenceSide) || 300,
  };
  const identity = { scale: 1, x: 0, y: 0 };
  let placement = {
    scale: Number(fields.scale.value) || 1,
    x: Number(fields.x.value) || 0,
    y: Number(fields.y.value) || 0,
  };
  let localPhoto = null; // object URL of a photo chosen on this device
  let image = null; // the <image> of the live preview
  let request = 0;

  const current = () => ({
    template: form.querySelector('input[name="template"]:checked')?.value ?? "",
    format: form.querySelector('input[name="format"]:checked')?.value ?? "post",
    purpose: form.elements.purpose?.value ?? "",
    target: form.elements.target?.value ?? "",
    showProgress: form.elements.show_progress?.checked ?? false,
    jarLink: form.elements.jar_link?.value ?? "",
    showQR: form.elements.show_qr?.checked ?? false,
    callToAction: form.elements.call_to_action?.value ?? "",
  });

  function previewURL(mode, template) {
    const values = current();
    const params = new URLSearchParams({ mode, template, format: values.format });
    if (values.purpose) params.set("purpose", values.purpose);
    if (values.target) params.set("target", values.target);
    if (values.showProgress) params.set("show_progress", "1");
    if (values.jarLink) params.set("jar_link", values.jarLink);
    if (values.showQR) params.set("show_qr", "1");
    if (values.callToAction) params.set("call_to_action", values.callToAction);
    if (form.dataset.id) params.set("id", form.dataset.id);
    if (mode !== "thumb") {
      if (localPhoto) params.set("photo", "local");
      else if (form.dataset.photo) params.set("photo", form.dataset.photo);
      params.set("scale", String(placement.scale));
      params.set("offset_x", String(placement.x));
      params.set("offset_y", String(placement.y));
    }
    return `${form.dataset.previewUrl}?${params}`;
  }

  function clamp(next) {
    const scale = Math.min(Math.max(next.scale, limits.min), limits.max);
    const limit = limits.side * Math.max(1, scale);
    const bound = (value) => Math.min(Math.max(value, -limit), limit);
    return { scale, x: bound(next.x), y: bound(next.y) };
  }

  function slot() {
    const x = Number(image.getAttribute("x"));
    const y = Number(image.getAttribute("y"));
    const width = Number(image.getAttribute("width"));
    const height = Number(image.getAttribute("height"));
    return { midX: x + width / 2, midY: y + height / 2, unit: Math.max(width, height) / limits.side };
  }

  // Writes the placement to the form and to the preview's photo.
  function apply() {
    fields.scale.value = String(round(placement.scale));
    fields.x.value = String(round(placement.x));
    fields.y.value = String(round(placement.y));
    if (!image) return;
    const { midX, midY, unit } = slot();
    const s = placement.scale;
    const tx = midX * (1 - s) + placement.x * unit;
    const ty = midY * (1 - s) + placement.y * unit;
    if (s === 1 && tx === 0 && ty === 0) image.removeAttribute("transform");
    else image.setAttribute("transform", `matrix(${s} 0 0 ${s} ${tx} ${ty})`);
  }

  function place(next) {
    placement = clamp(next);
    apply();
  }

  async function render() {
    const { template } = current();
    if (!template) return;
    const mine = ++request;
    let text;
    try {
      const response = await fetch(previewURL("inline", template), { credentials: "same-origin" });
      if (!response.ok) return;
      text = await response.text();
    } catch {
      return; // offline: the previous preview stays
    }
    if (mine !== request) return; // a newer request is on its way
    const root = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (root.nodeName !== "svg") return;
    const photo = root.querySelector("image");
    if (photo && localPhoto) {
      photo.removeAttribute("href");
      photo.setAttributeNS(XLINK, "xlink:href", localPhoto);
    }
    const svg = document.importNode(root, true);
    svg.classList.add("fr-preview-svg");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    preview.replaceChildren(svg);
    image = svg.querySelector("image");
    preview.classList.toggle("fr-preview-active", Boolean(image));
    zoomBar.hidden = !image;
    preview.tabIndex = image ? 0 : -1;
    apply();
  }

  const renderSoon = debounce(render, 250);

  const thumbnails = [...form.querySelectorAll(".fr-template-thumb")];
  const refreshThumbnails = debounce(() => {
    for (const thumb of thumbnails) {
      const template = thumb.closest("label")?.querySelector("input")?.value;
      if (template) thumb.src = previewURL("thumb", template);
    }
  }, 700);

  // The purpose counter: how many characters, and how many too many, while typing or pasting.
  const purposeField = form.elements.purpose;
  const counter = document.getElementById("field-purpose-count");
  // Counted as the server counts: user-perceived characters (an emoji with a skin tone is one).
  const graphemes =
    typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter("uk", { granularity: "grapheme" }) : null;
  function characters(text) {
    return graphemes ? [...graphemes.segment(text)].length : [...text].length;
  }
  function count() {
    if (!purposeField || !counter) return;
    const limit = Number(purposeField.dataset.maxLength) || 500;
    const length = characters(purposeField.value.trim());
    const over = length - limit;
    counter.textContent =
      over > 0
        ? t("fundraisers.form.purpose_count_over", { count: length, max: limit, over })
        : t("fundraisers.form.purpose_count", { count: length, max: limit });
    counter.classList.toggle("fr-count-over", over > 0);
  }
  count();

  form.addEventListener("input", (event) => {
    const name = event.target.name;
    if (name === "purpose") count();
    if (name === "purpose" || name === "target" || name === "jar_link" || name === "call_to_action") {
      renderSoon();
      refreshThumbnails();
    }
  });

  form.addEventListener("change", (event) => {
    const target = event.target;
    if (target.name === "template") {
      // As in the original app: a new template starts from a centred, unzoomed photo.
      place(identity);
      render();
    } else if (target.name === "format") {
      render();
    } else if (target.name === "show_progress" || target.name === "show_qr") {
      render();
      refreshThumbnails();
    } else if (target.name === "photo") {
      const file = target.files?.[0];
      if (localPhoto) URL.revokeObjectURL(localPhoto);
      localPhoto = file ? URL.createObjectURL(file) : null;
      render();
    }
  });

  // ---- drag and pinch with pointer events (mouse, pen and touch alike)
  const pointers = new Map();
  let gesture = null;

  function begin() {
    if (!image) return null;
    const matrix = image.parentNode.getScreenCTM()?.inverse();
    if (!matrix) return null;
    return { start: { ...placement }, points: new Map(pointers), matrix, unit: slot().unit };
  }

  // Screen pixels to offset units along the slot's own (possibly rotated) axes.
  function units(dx, dy) {
    const m = gesture.matrix;
    return [(m.a * dx + m.c * dy) / gesture.unit, (m.b * dx + m.d * dy) / gesture.unit];
  }

  function distance(points) {
    const [a, b] = [...points.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  preview.addEventListener("pointerdown", (event) => {
    if (!image || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    preview.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture = begin();
    preview.focus({ preventScroll: true });
  });

  preview.addEventListener("pointermove", (event) => {
    if (!gesture || !pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 1) {
      const start = gesture.points.get(event.pointerId);
      if (!start) return;
      const [dx, dy] = units(event.clientX - start.x, event.clientY - start.y);
      place({ ...gesture.start, x: gesture.start.x + dx, y: gesture.start.y + dy });
    } else if (pointers.size === 2 && gesture.points.size === 2) {
      const before = distance(gesture.points);
      if (before > 0) place({ ...gesture.start, scale: gesture.start.scale * (distance(pointers) / before) });
    }
  });

  const release = (event) => {
    if (!pointers.delete(event.pointerId)) return;
    gesture = pointers.size ? begin() : null;
  };
  preview.addEventListener("pointerup", release);
  preview.addEventListener("pointercancel", release);

  preview.addEventListener(
    "wheel",
    (event) => {
      if (!image) return;
      event.preventDefault();
      place({ ...placement, scale: placement.scale * Math.exp(-event.deltaY * 0.0015) });
    },
    { passive: false },
  );

  preview.addEventListener("keydown", (event) => {
    if (!image) return;
    const step = event.shiftKey ? 25 : 5;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[event.key]) {
      const [dx, dy] = moves[event.key];
      place({ ...placement, x: placement.x + dx, y: placement.y + dy });
    } else if (event.key === "+" || event.key === "=") {
      place({ ...placement, scale: placement.scale * 1.1 });
    } else if (event.key === "-" || event.key === "_") {
      place({ ...placement, scale: placement.scale / 1.1 });
    } else if (event.key === "0") {
      place(identity);
    } else {
      return;
    }
    event.preventDefault();
  });

  zoomBar.addEventListener("click", (event) => {
    const action = event.target.closest("[data-zoom]")?.dataset.zoom;
    if (action === "in") place({ ...placement, scale: placement.scale * 1.2 });
    else if (action === "out") place({ ...placement, scale: placement.scale / 1.2 });
    else if (action === "reset") place(identity);
  });

  render();
}

// ------------------------------------------------------------------ poster page

function setUpPoster(button) {
  const poster = document.getElementById("fr-poster");
  const svgLink = document.getElementById("fr-svg");
  const status = document.getElementById("fr-png-status");
  button.hidden = false;

  // The format switch changes the picture and both downloads in place.
  for (const link of document.querySelectorAll("a.fr-format[data-svg-url]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const data = link.dataset;
      poster.src = data.svgUrl;
      poster.width = Number(data.width);
      poster.height = Number(data.height);
      svgLink.href = data.downloadUrl;
      Object.assign(button.dataset, {
        svgUrl: data.svgUrl, filename: data.filename, width: data.width, height: data.height,
      });
      for (const other of document.querySelectorAll("a.fr-format")) {
        if (other === link) other.setAttribute("aria-current", "page");
        else other.removeAttribute("aria-current");
      }
      history.replaceState(null, "", link.href);
    });
  }

  button.addEventListener("click", async () => {
    const { svgUrl, filename, width, height, error } = button.dataset;
    button.disabled = true;
    status.textContent = t("fundraisers.show.png_creating");
    try {
      const blob = await rasterize(svgUrl, Number(width), Number(height));
      saveBlob(blob, filename);
      // While the public page is on, the same picture becomes its link preview.
      if (button.dataset.shareUrl) await sharePreview(button.dataset.shareUrl, blob);
      status.textContent = "";
    } catch {
      status.textContent = error;
    } finally {
      button.disabled = false;
    }
  });
}

// Hands `blob` to the browser as a download named `filename`.
function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

// The report poster's PNG buttons: each names its SVG, size and file name; the browser draws
// it on a canvas as for the campaign poster.
function setUpReportPosters(buttons) {
  const status = document.getElementById("fr-report-png-status");
  for (const button of buttons) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const { svgUrl, filename, width, height, error } = button.dataset;
      button.disabled = true;
      if (status) status.textContent = t("fundraisers.show.png_creating");
      try {
        const blob = await rasterize(svgUrl, Number(width), Number(height));
        saveBlob(blob, filename);
        if (status) status.textContent = "";
      } catch {
        if (status) status.textContent = error;
      } finally {
        button.disabled = false;
      }
    });
  }
}

// Sends the PNG for the public page's link preview; a failure only costs the preview.
async function sharePreview(url, blob) {
  const token = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 20_000);
  try {
    await fetch(url, {
      method: "PUT",
      headers: { "Content-Type": "image/png", "X-CSRF-Token": token },
      body: blob,
      signal: controller.signal,
    });
  } catch {
    // The poster is downloaded already; the preview keeps the previous picture.
  } finally {
    clearTimeout(timer);
  }
}

// Draws the server's SVG (photo and font inside it) on a canvas of the poster's full size.
async function rasterize(svgUrl, width, height) {
  const picture = new Image(width, height);
  picture.src = svgUrl;
  await picture.decode();
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  context.drawImage(picture, 0, 0, width, height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no PNG"))), "image/png");
  });
}
