// The products listing drawn from the device: the copy of the catalog (catalog.js) with what
// waits in the outbox laid over it — products added here appear at once with a "Waiting"
// mark, edits show their new values, deletions are gone, hearts are as tapped. Used when the
// page is a stored copy (offline), in the markup and words of the server's listing.

import { t, tn } from "./i18n.js";
import { chips, favorites, listing, normalize } from "./catalog.js";
import { LOCAL_PREFIX, csrfToken, kindOf } from "./products-outbox.js";
import { readAmount } from "./product-rules.js";

export const PER_PAGE = 24;
export const FAVORITES_SHOWN = 24;

/** An element with attributes (`text` for its text) and children, as the products pages build them. */
export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** The markup of an icon the page carries in a <template> (one source: the server's views). */
export function icon(name) {
  return document.getElementById(`icon-${name}`)?.innerHTML ?? "";
}

/** The search folding rules the page carries (SearchFoldingSheet), or null. */
export function searchRules() {
  try {
    const node = document.getElementById("search-rules");
    return node ? JSON.parse(node.textContent) : null;
  } catch {
    return null;
  }
}

/** How the account's locale writes the decimal mark. */
/** The decimal mark of `locale` ("." when it cannot be told). */
export function decimalSeparator(locale) {
  try {
    return (1.5).toLocaleString(locale).charAt(1) || ".";
  } catch {
    return ".";
  }
}

/** A typed amount ("19,99" in de-DE) as a dot decimal, or null when not certain. */
export function typedDecimal(text, locale) {
  const value = readAmount(text, { decimalSeparator: decimalSeparator(locale) });
  return value || null;
}

/** `price` (a dot decimal) in the account's currency, as the listing writes prices. */
export function priceDisplay(price, locale, currency) {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(Number(price));
  } catch {
    return `${price} ${currency}`;
  }
}

function taxDisplay(tax, locale) {
  try {
    return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(Number(tax) / 100);
  } catch {
    return `${tax}%`;
  }
}

/**
 * The catalog as this device sees it: the copy with the outbox's items applied, in order.
 * Each product may carry `waiting` ("create", "edit", "delete") and `outboxId`.
 */
export function localProducts(copy, items, { sheet, locale, currency }) {
  const byId = new Map(copy.map((product) => [product.id, product]));
  const waitingCreates = [];
  for (const item of items) {
    if (item.status === "refused") continue;
    const kind = kindOf(item);
    if (kind === "create") {
      const price = typedDecimal(item.price, locale);
      const tax = typedDecimal(item.tax, locale);
      waitingCreates.push({
        id: LOCAL_PREFIX + item.id,
        outboxId: item.id,
        number: Number.MAX_SAFE_INTEGER - waitingCreates.length,
        name: item.name,
        type: item.type,
        name_key: normalize(item.name, sheet),
        type_key: normalize(item.type, sheet),
        price: price ?? "0",
        tax: tax ?? "0",
        price_display: price ? priceDisplay(price, locale, currency) : `${item.price} ${currency}`,
        tax_display: tax ? taxDisplay(tax, locale) : `${item.tax}%`,
        photo: item.photo,
        favorite: Boolean(item.favorite),
        favorited_at: item.favorite ? new Date(item.createdAt).toISOString() : null,
        waiting: "create",
      });
      continue;
    }
    const product = byId.get(item.productId);
    if (!product) continue;
    if (kind === "delete") {
      byId.delete(item.productId);
    } else if (kind === "favorite") {
      byId.set(item.productId, {
        ...product,
        favorite: item.on,
        favorited_at: item.on ? new Date(item.createdAt).toISOString() : null,
      });
    } else if (kind === "edit" && item.status !== "conflict") {
      const price = typedDecimal(item.price, locale) ?? product.price;
      const tax = typedDecimal(item.tax, locale) ?? product.tax;
      byId.set(item.productId, {
        ...product,
        name: item.name,
        type: item.type,
        name_key: normalize(item.name, sheet),
        type_key: normalize(item.type, sheet),
        price,
        tax,
        price_display: priceDisplay(price, locale, currency),
        tax_display: taxDisplay(tax, locale),
        photo: item.photo || null,
        image_url: item.removePhoto ? null : product.image_url,
        waiting: "edit",
        outboxId: item.id,
      });
    }
  }
  return [...byId.values(), ...waitingCreates];
}

/** The listing's parameters from the address, as the server reads them. */
export function listingQuery(search = location.search) {
  const params = new URLSearchParams(search);
  const page = Number.parseInt(params.get("page") || "1", 10);
  const sort = params.get("sort") || "newest";
  return {
    q: params.get("q") || "",
    type: params.get("type") || "",
    sort: ["newest", "name", "price", "price_desc"].includes(sort) ? sort : "newest",
    page: Number.isFinite(page) ? Math.min(Math.max(page, 1), 1000000) : 1,
  };
}

function href(base, query, changes = {}) {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.type) params.set("type", next.type);
  if (next.sort && next.sort !== "newest") params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}

function count(number, locale) {
  try {
    return new Intl.NumberFormat(locale).format(number);
  } catch {
    return String(number);
  }
}

/**
 * Draws the listing into `root` (.products-page) from `products` (see localProducts):
 * search box, category chips, favourites row, grid and pages. `thumbs` maps product ids to
 * object URLs of their thumbnails.
 */
export function renderListing(root, products, { sheet, locale, routes, thumbs, query }) {
  const list = routes.list;
  const result = listing(products, { ...query, per: PER_PAGE }, sheet);
  const typeChips = chips(products);
  const titles = new Map(typeChips.map((chip) => [chip.key, chip.title]));
  const selected = typeChips.find((chip) => chip.key === normalize(query.type, sheet));

  const search = ensureSearch(root, list, query);
  const categories = el("nav", { class: "categories", "aria-labelledby": "categories-heading" }, [
    el("h2", { id: "categories-heading", text: t("products.list.browse_categories") }),
    el(
      "ul",
      { class: "chips" },
      [
        { key: "", title: t("products.list.all"), count: products.length },
        ...typeChips,
      ].map((chip) => {
        const on = chip.key ? chip.key === selected?.key : !selected;
        const link = el("a", {
          href: href(list, query, { type: chip.key, page: 1 }),
          class: on ? "chip chip-selected" : "chip",
          "aria-current": on ? "true" : null,
        }, [document.createTextNode(chip.title), el("span", { class: "chip-count", text: count(chip.count, locale) })]);
        return el("li", {}, [link]);
      }),
    ),
  ]);
  replace(root, "nav.categories", categories, search);

  const starred = favorites(products);
  const favoritesNode = starred.length
    ? el("section", { id: "favorites", class: "favorites", "aria-labelledby": "favorites-heading" }, [
        el("h2", { id: "favorites-heading", text: t("products.list.favorites_heading") }),
        el("ul", { class: "favorite-row" }, starred.slice(0, FAVORITES_SHOWN).map((product) => favoriteItem(product, routes, thumbs))),
        starred.length > FAVORITES_SHOWN
          ? el("p", { class: "muted small", text: t("products.list.and_more", { more: starred.length - FAVORITES_SHOWN }) })
          : null,
      ])
    : el("section", { id: "favorites", class: "favorites", hidden: true });
  root.querySelector("#favorites")?.replaceWith(favoritesNode);

  const results = root.querySelector(".product-results");
  if (!results) return result;
  if (products.length === 0) {
    results.replaceChildren(
      el("h2", { id: "products-heading", class: "products-sr-only", text: t("products.list.all_products") }),
      el("div", { class: "empty-state" }, [
        el("h2", { text: t("products.list.empty_title") }),
        el("p", { text: t("products.list.empty_message") }),
        el("a", { href: routes.new, class: "button button-primary", text: t("products.list.add_product") }),
      ]),
    );
    return result;
  }
  const category = selected?.title ?? t("products.list.all_products");
  const heading = query.q ? t("products.list.heading_search", { category, query: query.q }) : category;
  const head = el("div", { class: "list-head" }, [el("h2", { id: "products-heading", text: heading }), sortForm(list, query)]);
  if (result.items.length === 0) {
    results.replaceChildren(
      head,
      el("div", { class: "empty-state" }, [
        el("p", { text: query.q ? t("products.list.not_found") : t("products.list.nothing_on_page") }),
        el("a", { href: list, class: "button", text: t("products.list.show_all") }),
      ]),
    );
    return result;
  }
  results.replaceChildren(
    ...[
      head,
      el("p", { class: "muted list-count", text: tn("products.list.count", result.total, { count: count(result.total, locale) }) }),
      el("ul", { class: "product-grid" }, result.items.map((product) => card(product, { routes, thumbs, titles, back: href(list, query) }))),
      pagination(result, (page) => href(list, query, { page })),
    ].filter(Boolean),
  );
  return result;
}

function replace(root, selector, node, after) {
  const old = root.querySelector(selector);
  if (old) old.replaceWith(node);
  else after?.after(node);
}

/** The search form: the page's own, or one like it when the stored page had none. */
function ensureSearch(root, list, query) {
  let form = root.querySelector("#product-search");
  if (!form) {
    form = el("form", { action: list, method: "get", role: "search", class: "product-search", id: "product-search" }, [
      el("label", { for: "product-q", class: "products-sr-only", text: t("products.list.search_label") }),
      el("div", { class: "search-row" }, [
        el("input", {
          type: "search",
          id: "product-q",
          name: "q",
          placeholder: t("products.list.search_placeholder"),
          autocomplete: "off",
          enterkeyhint: "search",
          "aria-controls": "product-search-results",
        }),
        el("button", { type: "submit", class: "button search-submit", text: t("products.list.search") }),
      ]),
      el("div", { id: "product-search-results", class: "search-overlay", "aria-live": "polite", hidden: true }),
    ]);
    const anchor = root.querySelector("#favorites") ?? root.querySelector(".product-results");
    anchor?.before(form);
  }
  const input = form.querySelector("#product-q");
  if (input && document.activeElement !== input) input.value = query.q;
  for (const hidden of form.querySelectorAll('input[type="hidden"]')) hidden.remove();
  const row = form.querySelector(".search-row");
  if (query.type) row?.append(el("input", { type: "hidden", name: "type", value: query.type }));
  if (query.sort !== "newest") row?.append(el("input", { type: "hidden", name: "sort", value: query.sort }));
  return form;
}

function sortForm(list, query) {
  const select = el(
    "select",
    { id: "product-sort-order", name: "sort" },
    [
      ["newest", t("products.list.sort_newest")],
      ["name", t("products.list.sort_name")],
      ["price", t("products.list.sort_price")],
      ["price_desc", t("products.list.sort_price_desc")],
    ].map(([value, label]) => el("option", { value, selected: value === query.sort, text: label })),
  );
  select.addEventListener("change", () => select.form.requestSubmit());
  return el("form", { action: list, method: "get", class: "sort-form", id: "product-sort" }, [
    query.q ? el("input", { type: "hidden", name: "q", value: query.q }) : null,
    query.type ? el("input", { type: "hidden", name: "type", value: query.type }) : null,
    el("label", { for: "product-sort-order", text: t("products.list.sort") }),
    select,
    el("button", { class: "button sort-apply", text: t("products.list.apply") }),
  ]);
}

function pagination(result, hrefFor) {
  if (result.pageCount <= 1) return null;
  const items = [];
  if (result.page > 1) items.push(el("a", { href: hrefFor(result.page - 1), class: "button", rel: "prev", text: t("products.list.previous") }));
  const wanted = new Set([1, result.pageCount]);
  for (let n = result.page - 2; n <= result.page + 2; n += 1) if (n >= 1 && n <= result.pageCount) wanted.add(n);
  let previous = 0;
  for (const number of [...wanted].sort((a, b) => a - b)) {
    if (number > previous + 1) items.push(el("span", { class: "page-gap", text: "…" }));
    items.push(
      number === result.page
        ? el("span", { class: "button page-current", "aria-current": "page", text: String(number) })
        : el("a", { href: hrefFor(number), class: "button", "aria-label": t("products.list.page", { number }), text: String(number) }),
    );
    previous = number;
  }
  if (result.page < result.pageCount) items.push(el("a", { href: hrefFor(result.page + 1), class: "button", rel: "next", text: t("products.list.next") }));
  return el("nav", { class: "pagination", "aria-label": t("products.list.pages") }, items);
}

/** A product's picture: its thumbnail on this device, the photo (cached or not), or none. */
export function media(product, thumbs, small, routes) {
  const size = small ? "96" : "320";
  const className = small ? "product-media product-media-small" : "product-media";
  const src = product.photo || thumbs?.get(product.id) || photoAddress(product, routes);
  if (!src) {
    const node = el("div", { class: `${className} product-placeholder`, role: "img", "aria-label": t("products.list.no_photo") });
    node.innerHTML = icon("placeholder");
    return node;
  }
  return el("div", { class: className }, [
    el("img", { src, alt: "", loading: "lazy", decoding: "async", width: size, height: size }),
  ]);
}

/**
 * The photo at the address the pages use (`image_url` is the API's), with its version, so the
 * service worker's stored copy of a photo seen online is found.
 */
function photoAddress(product, routes) {
  if (!product.image_url || !routes?.photo) return null;
  const version = new URL(product.image_url, location.origin).search;
  return routes.photo.replace(":productID", encodeURIComponent(product.id)) + version;
}

/** Where tapping a product leads: its edit form, or the Add form for one still waiting. */
export function editHref(product, routes) {
  if (product.waiting === "create") return `${routes.form}#outbox=${encodeURIComponent(product.outboxId)}`;
  return routes.edit.replace(":productID", encodeURIComponent(product.id));
}

function heartForm(product, routes, { on, label, content, className, toggle = true, back }) {
  const button = el("button", {
    type: "submit",
    class: className,
    "aria-label": label,
    title: label,
    "aria-pressed": toggle ? (on ? "false" : "true") : null,
  });
  if (typeof content === "string") button.innerHTML = content;
  else button.append(content);
  return el("form", {
    class: "favorite-form",
    method: "post",
    action: routes.favorite.replace(":productID", encodeURIComponent(product.id)),
    "data-product": product.id,
    "data-name": product.name,
  }, [
    el("input", { type: "hidden", name: "_csrf", value: csrfToken() }),
    el("input", { type: "hidden", name: "favorite", value: on ? "1" : "0" }),
    el("input", { type: "hidden", name: "back", value: back }),
    button,
  ]);
}

function card(product, { routes, thumbs, titles, back }) {
  const waiting = product.waiting
    ? el("span", { class: "outbox-badge card-badge", text: t("products.outbox.waiting_badge") })
    : null;
  return el("li", { class: product.waiting ? "product-card product-waiting" : "product-card", id: `product-${product.id}` }, [
    media(product, thumbs, false, routes),
    el("div", { class: "product-body" }, [
      el("h3", { class: "product-name" }, [el("a", { href: editHref(product, routes), title: product.name, text: product.name })]),
      el("p", { class: "product-type", text: titles.get(product.type_key) ?? product.type }),
      el("p", { class: "product-price", text: product.price_display }),
      el("span", { class: "tax-chip", text: t("products.list.tax_chip", { tax: product.tax_display }) }),
      waiting,
    ]),
    heartForm(product, routes, {
      on: !product.favorite,
      label: product.favorite
        ? t("products.favorite.remove", { name: product.name })
        : t("products.favorite.add", { name: product.name }),
      content: icon("heart"),
      className: "heart",
      back,
    }),
  ]);
}

function favoriteItem(product, routes, thumbs) {
  return el("li", { class: "favorite-item" }, [
    media(product, thumbs, true, routes),
    el("div", { class: "favorite-text" }, [
      el("a", { href: editHref(product, routes), class: "favorite-name", title: product.name, text: product.name }),
      el("span", { class: "favorite-price", text: product.price_display }),
    ]),
    heartForm(product, routes, {
      on: false,
      label: t("products.favorite.remove", { name: product.name }),
      content: el("span", { "aria-hidden": "true", text: "\u00D7" }),
      className: "favorite-remove",
      toggle: false,
      back: routes.list,
    }),
  ]);
}
