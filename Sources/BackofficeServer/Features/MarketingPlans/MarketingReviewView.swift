import BackofficeCore
import Foundation

/// Step 4: "Review Selection" — the chosen packages, the total, and the email actions.
struct MarketingReviewPage: PageView {
  struct Email: Sendable {
    var recipient: String
    var subject: String
    var recipientError: String? = nil
    var subjectError: String? = nil
    var mailto: MailtoLink
    /// The saved values, when a save was refused because the plan changed meanwhile and they
    /// differ from the typed ones.
    var recipientSaved: String? = nil
    var subjectSaved: String? = nil
  }

  var header: MarketingPlanHeader
  var stored: StoredMarketingCatalog?
  var summary: PlanSummary?
  var email: Email?

  var title: String { "Review Selection" }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  func content(context: PageContext) -> HTMLNode {
    guard let stored, let summary, let email else {
      return H.group([
        header.render(context: context, stored: nil), H.h1("Review Selection"),
        marketingLoadFailure(retry: Routes.marketingPlanReview.href(id: header.id)),
      ])
    }
    var body: [HTMLNode] = [
      header.render(context: context, stored: stored),
      H.h1("Review Selection"),
    ]
    let chosen = header.selection.chosenPackages(in: stored.catalog).sorted {
      ($0.channel.name.lowercased(), $0.package.name) < (
        $1.channel.name.lowercased(), $1.package.name
      )
    }
    guard !chosen.isEmpty else {
      body.append(
        emptyState(
          title: "No packages selected",
          message:
            "Choose a package in at least one channel, then come back to review and send it.",
          action: H.a(
            Routes.marketingPlanChannels.href(id: header.id), [.class("button button-primary")],
            text: "Select Channels")))
      return H.group(body)
    }
    body.append(
      H.section(
        [.class("card mk-total"), .aria(.labelledby, "mk-total-label")],
        [
          H.p([.class("mk-total-label"), .id("mk-total-label")], "Total Monthly Cost:"),
          H.p(
            [.class("mk-total-value"), .id("mk-total")],
            summary.totals.formatted(locale: context.locale)),
          H.p([.class("muted small")], summary.totals.countsText),
          H.p(
            [.class("muted small")],
            "Targeting: \(header.selection.targetNames.joined(separator: ", "))"),
        ]))
    body.append(
      H.ul(
        [.class("mk-review"), .id("mk-list")],
        chosen.enumerated().map { index, item in
          H.li(
            [.class("card mk-review-card"), .id("review-\(index)")],
            [
              H.div(
                [.class("mk-review-head")],
                [
                  H.h2([], [H.text(item.package.name)]),
                  H.span([.class("mk-chip mk-chip-channel")], item.channel.name),
                ]),
              H.p(
                [.class("mk-review-price")],
                MarketingFormat.price(item.package, locale: context.locale) + "/month"),
              H.p([.class("muted")], item.package.description),
              H.ul(
                [.class("mk-details")],
                item.package.details.map { H.li([], [H.text($0)]) }),
              postForm(
                action: Routes.marketingPlanRemove.href(id: header.id), csrf: context.csrf,
                attributes: [.class("mk-remove"), .data("mk-swap", "")],
                [
                  header.versionField,
                  H.input([.type("hidden"), .name("package"), .value(item.package.id)]),
                  H.button(
                    "Remove",
                    [.class("button"), .aria(.label, "Remove \(item.package.name)")]),
                ]),
            ])
        }))
    body.append(emailSection(context: context, summary: summary, email: email))
    return H.group(body)
  }

  private func emailSection(context: PageContext, summary: PlanSummary, email: Email) -> HTMLNode {
    let template =
      "The mail app link holds a shortened summary: {n} package(s) left out to stay under "
      + "\(Mailto.defaultLimit) characters. Download the email for the full version."
    let note =
      email.mailto.wasShortened
      ? template.replacingOccurrences(of: "{n}", with: String(email.mailto.omittedEntries)) : ""
    return H.section(
      [.class("card mk-email"), .id("send-email"), .aria(.labelledby, "mk-send")],
      [
        H.h2("Send Email", [.id("mk-send")]),
        postForm(
          action: Routes.marketingPlanEmail.href(id: header.id), csrf: context.csrf,
          attributes: [
            .class("stack mk-email-form"), .id("mk-email-form"), .novalidate,
            .data("plan-id", header.id.uuidString.lowercased()),
            .data("api", Routes.apiMarketingPlan.href(id: header.id)),
            .data("summary", Routes.apiMarketingPlanSummary.href(id: header.id)),
          ],
          [
            header.versionField,
            FieldView(
              name: "recipient", label: "Recipient", type: "email", value: email.recipient,
              error: email.recipientError,
              hint: "Leave empty to choose the recipient in your mail app.",
              autocomplete: "email", saved: email.recipientSaved.map { SavedValue(text: $0) }
            ).render(),
            FieldView(
              name: "subject", label: "Subject", value: email.subject,
              error: email.subjectError,
              extra: [.maxlength(String(MarketingPlanRules.maxSubject))],
              saved: email.subjectSaved.map { SavedValue(text: $0) }
            ).render(),
            H.p(
              [.class("field-error"), .id("mk-email-conflict"), .role("alert")]
                + [.hidden],
              ""),
            H.button("Save email details", [.class("button"), .id("mk-email-save")]),
          ]),
        H.div(
          [.class("mk-row mk-email-actions")],
          [
            H.a(
              email.mailto.string, [.class("button button-primary"), .id("mk-mailto")],
              text: "Open in mail app"),
            H.a(
              Routes.marketingPlanEmailDownload.href(id: header.id),
              [.class("button"), .id("mk-download"), .download("")],
              text: "Download email"),
            H.button(
              "Copy summary",
              [
                .type("button"), .class("button"), .id("mk-copy"),
                .data("copy-target", "mk-summary-text"), .hidden,
              ]),
            H.button(
              "Print", [.type("button"), .class("button"), .id("mk-print"), .hidden]),
          ]),
        H.p(
          [
            .class("hint mk-mailto-note"), .id("mk-mailto-note"), .aria(.live, "polite"),
            .data("template", template),
          ]
            + (note.isEmpty ? [.hidden] : []),
          note),
        H.div(
          [.class("field mk-summary-field")],
          [
            H.label([.`for`("mk-summary-text")], [H.text("Plain-text summary")]),
            H.textarea(
              [
                .id("mk-summary-text"), .class("mk-summary-text"), .readonly,
                .rows("12"),
              ],
              [H.text(summary.text)]),
          ]),
      ])
  }
}
