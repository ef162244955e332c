"""Schemathesis hooks for e2e/test_api_fuzz.py: values a JSON Schema cannot describe.

- A photo must be a real JPEG or PNG (the server checks the bytes). Schemathesis cannot draw one,
  so every non-empty JSON `photo` string is replaced by a 1x1 PNG just before the request is sent,
  and the multipart `files[]` parts of POST /api/public/add are sent empty (no photo). Wrong types
  and nulls are left alone, so invalid requests stay invalid.
- The expense filters take a month or a day range, not both, and a range whose last day is before
  its first is refused (docs/expenses.md, and the parameters' descriptions); OpenAPI cannot say
  that one query parameter excludes another. When both are generated, the range is dropped; a
  reversed range is put in order.
- A marketing plan's `targets` and `packages` must name entries of the live catalog (a refresh
  can change them): generated lists are sent empty, which is always valid.

Schemathesis re-validates a case after `before_call` edits it, so a request is judged (valid or
invalid) by what is actually sent.
"""
import re

import schemathesis

PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
PHOTO_JSON = {"createProduct", "updateProduct", "createFundraiser", "updateFundraiser"}
PLANS = {"createMarketingPlan", "updateMarketingPlan"}
EXPENSE_FILTERS = {"listExpenses", "summarizeExpenses"}
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _filled(value):
    return isinstance(value, str) and value.strip() != ""


@schemathesis.hook
def before_call(context, case, kwargs):
    operation_id = case.operation.definition.raw.get("operationId")
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
    elif operation_id == "swipeAddProduct":
        files = body.get("files[]")
        if isinstance(files, list):
            # Sent as empty file parts, which the server skips (no photo). Not as PNG bytes: a body
            # holding bytes cannot be re-validated, and schemathesis would then count it invalid.
            body["files[]"] = ["" if isinstance(part, (str, bytes)) else part for part in files]
    elif operation_id in PLANS:
        for name in ("targets", "packages"):
            if isinstance(body.get(name), list):
                body[name] = []
