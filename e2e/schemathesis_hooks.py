"""Schemathesis hooks for e2e/test_api_fuzz.py: values a JSON Schema cannot describe.

The document states every rule a schema can hold. What is left depends on bytes, on live data
or on two query parameters at once, and is said in the document's descriptions instead:

- A photo must be a real JPEG or PNG (the server reads its header). Schemathesis cannot draw
  one, so every non-empty JSON `photo` string is replaced by a 1x1 PNG just before the request is
  sent, and the multipart `files[]` parts of POST /api/public/add are sent empty (no photo).
  Wrong types and nulls are left alone, so invalid requests stay invalid.
- An expense's `fundraiser_id` must name one of the workspace's fundraisers, which the document
  cannot list: a generated id is sent as null (no fundraiser), which is always valid; wrong types
  are left alone. The `fundraiser` filter takes any id (another one simply selects nothing).
- The expense filters take a month or a day range, not both, and a range whose last day is before
  its first is refused (docs/expenses.md, and the parameters' descriptions). OpenAPI 3.1 has no
  way to say that one query parameter excludes another: an exploded object parameter could, but
  then generated invalid objects are sent as query keys the server does not know, and ignores.
  When both are generated, the range is dropped; a reversed range is put in order.
- An `Idempotency-Key` names one request for 30 days: the same key with the same request again
  gets the first answer back (docs/products.md), even when the record it created has been
  deleted since, so a generated key that repeats turns a stateful "create" into a replay whose
  record is gone, which schemathesis reports as a created resource not found. Every well-formed
  generated key (1-255 visible ASCII characters) is replaced by a fresh UUID; malformed keys are
  left alone, so they are still refused.
- A marketing plan's `targets` and `packages` must name entries of the marketing catalog, which a
  refresh can replace, so the document cannot list them. Generated names are swapped for names
  of the server's catalog (read once through the API, with the token the test passes in
  FUZZ_API_TOKEN), and generated packages for packages of channels those targets reach, one per
  channel. Without the token (a hand-run without it), the lists are sent empty, which is always
  valid.

Schemathesis re-validates a case after `before_call` edits it, so a request is judged (valid or
invalid) by what is actually sent.
"""

import json
import os
import re
import urllib.request
import uuid
import zlib

import schemathesis

PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
PHOTO_JSON = {
    "createProduct", "updateProduct", "createFundraiser", "updateFundraiser", "addExpenseReceipt",
}
EXPENSE_WRITES = {"createExpense", "replaceExpense"}
PLANS = {"createMarketingPlan", "updateMarketingPlan"}
EXPENSE_FILTERS = {"listExpenses", "summarizeExpenses"}
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")

_catalog = None


def _filled(value):
    return isinstance(value, str) and value.strip() != ""


def _pick(items, seed):
    """The same generated string always picks the same entry."""
    return items[zlib.crc32(json.dumps(seed, sort_keys=True).encode()) % len(items)]


def _load_catalog(base_url):
    """Target names and, per target, the channels it reaches with their packages; None without
    a token."""
    global _catalog
    if _catalog is None:
        token = os.environ.get("FUZZ_API_TOKEN")
        if not token:
            return None
        request = urllib.request.Request(
            base_url.rstrip("/") + "/api/v1/marketing/catalog",
            headers={"Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            document = json.load(response)
        packages = {
            channel["id"]: [package["id"] for package in channel["packages"]]
            for channel in document["channels"]
        }
        _catalog = {
            target["name"]: [(id, packages[id]) for id in target["channel_ids"] if packages.get(id)]
            for target in document["targets"]
        }
    return _catalog


def _plan_lists(case, body):
    targets, packages = body.get("targets"), body.get("packages")
    if not isinstance(targets, list) and not isinstance(packages, list):
        return
    catalog = _load_catalog(case.operation.base_url)
    if not catalog:
        for name in ("targets", "packages"):
            if isinstance(body.get(name), list):
                body[name] = []
        return
    names = sorted(catalog)
    if isinstance(targets, list):
        # Only strings are names; anything else keeps an invalid request invalid.
        targets = [_pick(names, item) if isinstance(item, str) else item for item in targets]
        body["targets"] = targets
    if not isinstance(packages, list):
        return
    if not isinstance(targets, list):
        # An update without targets keeps the plan's own, which the hook does not know.
        if case.operation.definition.raw.get("operationId") == "updateMarketingPlan":
            body["packages"] = []
            return
        targets = []
    reachable = {}
    for name in targets:
        for channel, offered in catalog.get(name, []) if isinstance(name, str) else []:
            reachable[channel] = offered
    free = sorted(reachable)
    chosen = []
    for item in packages:
        if not (
            isinstance(item, dict)
            and isinstance(item.get("channel_id"), str)
            and isinstance(item.get("package_id"), str)
        ):
            chosen.append(item)
            continue
        if not free:
            continue
        channel = _pick(free, item["channel_id"])
        free.remove(channel)
        chosen.append({**item, "channel_id": channel, "package_id": _pick(reachable[channel], item["package_id"])})
    body["packages"] = chosen


@schemathesis.hook
def before_call(context, case, kwargs):
    operation_id = case.operation.definition.raw.get("operationId")
    if isinstance(case.headers, dict):
        for name, value in list(case.headers.items()):
            if name.lower() == "idempotency-key" and isinstance(value, str) and IDEMPOTENCY_KEY.fullmatch(value.strip()):
                case.headers[name] = str(uuid.uuid4())
    if operation_id in EXPENSE_FILTERS and isinstance(case.query, dict):
        query = case.query
        if _filled(query.get("month")):
            query.pop("from", None)
            query.pop("to", None)
        first, last = query.get("from"), query.get("to")
        if isinstance(first, str) and isinstance(last, str) and DAY.fullmatch(first) and DAY.fullmatch(last) and last < first:
            query["from"], query["to"] = last, first
        return
    body = case.body
    if not isinstance(body, dict):
        return
    if operation_id in PHOTO_JSON:
        if isinstance(body.get("photo"), str) and body["photo"]:
            body["photo"] = PNG_BASE64
    elif operation_id in EXPENSE_WRITES:
        if isinstance(body.get("fundraiser_id"), str):
            body["fundraiser_id"] = None
    elif operation_id == "swipeAddProduct":
        files = body.get("files[]")
        if isinstance(files, list):
            # Sent as empty file parts, which the server skips (no photo). Not as PNG bytes: a body
            # holding bytes cannot be re-validated, and schemathesis would then count it invalid.
            body["files[]"] = ["" if isinstance(part, (str, bytes)) else part for part in files]
    elif operation_id in PLANS:
        _plan_lists(case, body)
