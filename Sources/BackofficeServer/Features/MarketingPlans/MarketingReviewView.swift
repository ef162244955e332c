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
  /// The server sends mail: a Send button, and what became of the last plans sent.
  var mailOn = false
  var sentMails: [MailOutbox.Entry] = []

  var title: String { L("marketing.review.title") }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  func content(context: PageContext) -> HTMLNode {
    guard let stored, let summary, let email else {
      return H.group([
        header.render(context: context, stored: nil), H.h1(title),
        marketingLoadFailure(retry: Routes.marketingPlanReview.href(id: header.id)),
      ])
    }
    var body: [HTMLNode] = [
      header.render(context: context, stored: stored),
      H.h1(title),
    ]
    let chosen = header.selection.chosenPackages(in: stored.catalog).sorted {
      ($0.channel.name.lowercased(), $0.package.name) < (
        $1.channel.name.lowercased(), $1.package.name
      )
    }
    guard !chosen.isEmpty else {
      body.append(
        emptyState(
          title: L("marketing.review.empty_title"),
          message: L("marketing.review.empty_message"),
          action: whenWriting(
            context,
            H.a(
              Routes.marketingPlanChannels.href(id: header.id),
              [.class("button button-primary")], text: L("marketing.channels.title")))))
      return H.group(body)
    }
    body.append(
      H.section(
        [.class("card mk-total"), .aria(.labelledby, "mk-total-label")],
        [
          H.p(
            [.class("mk-total-label"), .id("mk-total-label")], L("marketing.total_monthly_cost")),
          H.p(
            [.class("mk-total-value"), .id("mk-total")],
            summary.totals.formatted(locale: context.locale)),
          H.p([.class("muted small")], summary.totals.countsText),
          H.p(
            [.class("muted small")],
            L(
              "marketing.targeting_value",
              ["targets": header.selection.targetNames.joined(separator: ", ")])),
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
                L(
                  "marketing.summary.per_month",
                  ["price": MarketingFormat.price(item.package, locale: context.locale)])),
              H.p([.class("muted")], item.package.description),
              H.ul(
                [.class("mk-details")],
                item.package.details.map { H.li([], [H.text($0)]) }),
              whenWriting(
                context,
                postForm(
                  action: Routes.marketingPlanRemove.href(id: header.id), csrf: context.csrf,
                  attributes: [.class("mk-remove"), .data("mk-swap", "")],
                  [
                    header.versionField,
                    H.input([.type("hidden"), .name("package"), .value(item.package.id)]),
                    H.button(
                      L("marketing.review.remove"),
                      [
                        .class("button"),
                        .aria(
                          .label,
                          L("marketing.review.remove_label", ["package": item.package.name])),
                      ]),
                  ])),
            ])
        }))
    body.append(
      whenWriting(context, emailSection(context: context, summary: summary, email: email)))
    return H.group(body)
  }

  private func sentMailsNode(_ context: PageContext) -> HTMLNode {
    guard !sentMails.isEmpty else { return H.empty }
    let utc = TimeZone(identifier: "UTC") ?? .gmt
    return H.div(
      [.class("mail-status")],
      [
        H.h3([], [H.text(L("marketing.email.sent_heading"))]),
        H.ul(
          [.class("plain-list")],
          sentMails.map { entry in
            let when = context.locale.formatDateTime(entry.createdAt, timeZone: utc) + " UTC"
            let state = MailOutbox.stateText(entry)
            return H.li(
              entry.status == .failed ? [.class("mail-failed")] : [],
              [
                H.strong([], [H.text(entry.to)]),
                H.text(" · \(entry.subject) · \(when) · \(state)"),
              ])
          }),
      ])
  }

  private func emailSection(context: PageContext, summary: PlanSummary, email: Email) -> HTMLNode {
    // "{n}" is left in for the script, which fills it after each save.
    let template = L("marketing.review.mailto_shortened", ["limit": String(Mailto.defaultLimit)])
    let note =
      email.mailto.wasShortened
      ? template.replacingOccurrences(of: "{n}", with: String(email.mailto.omittedEntries)) : ""
    return H.section(
      [.class("card mk-email"), .id("send-email"), .aria(.labelledby, "mk-send")],
      [
        H.h2(L("marketing.email.heading"), [.id("mk-send")]),
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
              name: "recipient", label: L("marketing.email.recipient"), type: "email",
              value: email.recipient, error: email.recipientError,
              hint: L("marketing.email.recipient_hint"),
              autocomplete: "email", saved: email.recipientSaved.map { SavedValue(text: $0) }
            ).render(),
            FieldView(
              name: "subject", label: L("marketing.email.subject"), value: email.subject,
              error: email.subjectError,
              extra: [.maxlength(String(MarketingPlanRules.maxSubject))],
              saved: email.subjectSaved.map { SavedValue(text: $0) }
            ).render(),
            H.p(
              [.class("field-error"), .id("mk-email-conflict"), .role("alert")]
                + [.hidden],
              ""),
            H.button(L("marketing.email.save"), [.class("button"), .id("mk-email-save")]),
          ]),
        mailOn
          ? postForm(
            action: Routes.marketingPlanEmailSend.href(id: header.id), csrf: context.csrf,
            attributes: [.class("mk-send-form")],
            [
              H.button(
                L("marketing.email.send"), [.class("button button-primary"), .id("mk-send-now")]),
              H.p([.class("hint")], L("marketing.email.send_hint")),
            ]) : H.empty,
        mailOn ? sentMailsNode(context) : H.empty,
        H.div(
          [.class("mk-row mk-email-actions")],
          [
            H.a(
              email.mailto.string, [.class("button button-primary"), .id("mk-mailto")],
              text: L("marketing.email.open_in_mail_app")),
            H.a(
              Routes.marketingPlanEmailDownload.href(id: header.id),
              [.class("button"), .id("mk-download"), .download("")],
              text: L("marketing.email.download")),
            H.button(
              L("marketing.email.copy_summary"),
              [
                .type("button"), .class("button"), .id("mk-copy"),
                .data("copy-target", "mk-summary-text"), .hidden,
              ]),
            H.button(
              L("marketing.email.print"),
              [.type("button"), .class("button"), .id("mk-print"), .hidden]),
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
            H.label([.`for`("mk-summary-text")], [H.text(L("marketing.email.plain_text_summary"))]),
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
