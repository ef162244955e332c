import Foundation

/// The plan written up for email: subject, an HTML body with inline styles (mail clients drop
/// style sheets) and a plain-text body with the same content.
public struct PlanSummary: Hashable, Sendable {
  public var subject: String
  public var html: String
  /// The plain text in parts, so a mail link can leave out whole packages when it is too long.
  public var textBody: PlainTextBody
  public var totals: PlanTotals

  /// The plain-text body, lines separated by "\n".
  public var text: String { textBody.rendered }

  /// Renders the summary of `packages`, listed by channel name. `generatedAt` and `timeZone`
  /// fix the subject date and the footer, so the same input always gives the same text.
  public init(
    packages: [ChosenPackage], targetNames: [String] = [], planName: String? = nil,
    locale: BackofficeLocale, generatedAt date: Date, timeZone: TimeZone
  ) {
    let sorted = packages.sorted {
      let left = ($0.channel.name.lowercased(), $0.package.name, $0.package.id)
      let right = ($1.channel.name.lowercased(), $1.package.name, $1.package.id)
      return left < right
    }
    let totals = PlanTotals(packages)
    let facts = SummaryFacts(
      title: Self.title,
      planName: planName.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 },
      total: totals.formatted(locale: locale),
      counts: totals.countsText,
      targets: targetNames.joined(separator: ", "),
      cards: sorted.map { chosen in
        SummaryFacts.Card(
          name: chosen.package.name,
          channel: chosen.channel.name,
          price: L(
            "marketing.summary.per_month",
            [
              "price": MoneyFormat.currency(
                chosen.package.price, currency: chosen.package.currency, locale: locale)
            ]),
          description: chosen.package.description,
          details: chosen.package.details)
      },
      generated: L(
        "marketing.summary.generated_on",
        ["date": locale.formatDateTime(date, timeZone: timeZone)]))
    self.subject = "\(Self.title) - \(locale.formatDate(date, timeZone: timeZone))"
    self.totals = totals
    // The words are in the interface language, so that is the language the page declares.
    self.html = Self.renderHTML(facts, subject: subject, language: UILanguage.current.rawValue)
    self.textBody = Self.renderText(facts)
  }

  /// Summary of what `selection` has chosen in `catalog`.
  public init(
    selection: PlanSelection, catalog: MarketingCatalog, planName: String? = nil,
    locale: BackofficeLocale, generatedAt date: Date, timeZone: TimeZone
  ) {
    self.init(
      packages: selection.chosenPackages(in: catalog), targetNames: selection.targetNames,
      planName: planName, locale: locale, generatedAt: date, timeZone: timeZone)
  }

  static var title: String { L("marketing.summary.title") }

  /// A `mailto:` link with this summary's text; see `Mailto.link`.
  public func mailtoURL(recipient: String, subject: String? = nil, limit: Int = Mailto.defaultLimit)
    -> MailtoLink
  {
    Mailto.link(
      recipient: recipient, subject: subject ?? self.subject, body: textBody, limit: limit)
  }

  /// The summary as a downloadable `.eml` draft with both bodies.
  public func emailMessage(
    from sender: String, to recipient: String, subject: String? = nil, date: Date,
    timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current, boundarySeed: UInt64? = nil
  ) -> EmailMessage {
    EmailMessage(
      from: sender, to: recipient, subject: subject ?? self.subject, date: date, html: html,
      text: text, timeZone: timeZone, boundarySeed: boundarySeed)
  }
}

/// Plain text in three parts: the opening (title and totals), one entry per package, and the
/// closing line. Entries are separated by blank lines.
public struct PlainTextBody: Hashable, Sendable {
  public var lead: String
  public var entries: [String]
  public var trailer: String

  public init(lead: String, entries: [String], trailer: String) {
    self.lead = lead
    self.entries = entries
    self.trailer = trailer
  }

  public var rendered: String { rendered(keepingEntries: entries.count) }

  /// The text with only the first `count` entries, followed by a line saying how many were left
  /// out (when any were).
  public func rendered(keepingEntries count: Int) -> String {
    let kept = Array(entries.prefix(max(0, count)))
    let omitted = entries.count - kept.count
    var blocks = [lead] + kept
    if omitted > 0 {
      blocks.append(Self.omissionNote(omitted))
    }
    blocks.append(trailer)
    return blocks.filter { !$0.isEmpty }.joined(separator: "\n\n")
  }

  /// "… and 3 more packages — full details in the downloaded email"
  public static func omissionNote(_ count: Int) -> String {
    L("marketing.summary.omitted_packages", count: count)
  }
}

/// The content both bodies show, already formatted, before it is written as HTML or text.
private struct SummaryFacts {
  struct Card {
    var name: String
    var channel: String
    var price: String
    var description: String
    var details: [String]
  }

  var title: String
  var planName: String?
  var total: String
  var counts: String
  var targets: String
  var cards: [Card]
  var generated: String
}

extension PlanSummary {
  fileprivate static func renderText(_ facts: SummaryFacts) -> PlainTextBody {
    var lead = [facts.title]
    if let name = facts.planName { lead.append(name) }
    lead += [
      "", L("marketing.summary.investment_summary_caps"),
      L("marketing.total_monthly_cost_value", ["total": facts.total]), facts.counts,
    ]
    if !facts.targets.isEmpty {
      lead.append(L("marketing.targeting_value", ["targets": facts.targets]))
    }
    lead += [
      "",
      facts.cards.isEmpty
        ? L("marketing.no_packages_selected") : L("marketing.summary.selected_packages_caps"),
    ]
    let entries = facts.cards.map { card in
      ([card.name + " [\(card.channel)]", card.price, card.description]
        + card.details.map { "- \($0)" }).joined(separator: "\n")
    }
    return PlainTextBody(
      lead: lead.joined(separator: "\n"), entries: entries, trailer: facts.generated)
  }

  fileprivate static func renderHTML(_ facts: SummaryFacts, subject: String, language: String)
    -> String
  {
    let e = HTMLEscaping.attribute
    let box =
      "background:#ffffff;border:1px solid #e4e7eb;border-radius:12px;padding:20px;"
      + "margin:16px 0 0;"
    let muted = "color:#52606d;font-size:14px;"
    var html = """
      <!DOCTYPE html>
      <html lang="\(e(language))">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(e(subject))</title>
      </head>
      <body style="margin:0;padding:0;background:#f4f5f7;color:#1f2933;\
      font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;">
      <div style="max-width:640px;margin:0 auto;padding:24px 16px;">
      <div style="background:#1d4ed8;color:#ffffff;border-radius:12px;padding:24px;">
      <h1 style="margin:0;font-size:24px;line-height:1.3;">\(e(facts.title))</h1>

      """
    if let name = facts.planName {
      html += "<p style=\"margin:8px 0 0;font-size:15px;\">\(e(name))</p>\n"
    }
    html += """
      </div>
      <div style="\(box)">
      <h2 style="margin:0 0 12px;font-size:18px;">\(e(L("marketing.summary.investment_summary")))</h2>
      <p style="margin:0;\(muted)">\(e(L("marketing.total_monthly_cost")))</p>
      <p style="margin:4px 0 8px;font-size:28px;font-weight:700;color:#1d4ed8;">\
      \(e(facts.total))</p>
      <p style="margin:0;\(muted)">\(e(facts.counts))</p>

      """
    if !facts.targets.isEmpty {
      let targeting = L("marketing.targeting_value", ["targets": facts.targets])
      html += "<p style=\"margin:8px 0 0;\(muted)\">\(e(targeting))</p>\n"
    }
    html += "</div>\n"
    if facts.cards.isEmpty {
      html +=
        "<p style=\"margin:16px 0 0;\(muted)\">\(e(L("marketing.no_packages_selected")))</p>\n"
    }
    for card in facts.cards {
      html += """
        <div style="\(box)">
        <h3 style="margin:0;font-size:17px;">\(e(card.name))</h3>
        <span style="display:inline-block;margin:6px 0 0;padding:2px 10px;border-radius:999px;\
        background:#e0e7ff;color:#3730a3;font-size:12px;font-weight:600;">\(e(card.channel))</span>
        <p style="margin:12px 0 4px;font-size:20px;font-weight:700;">\(e(card.price))</p>
        <p style="margin:0 0 8px;\(muted)">\(e(card.description))</p>

        """
      if !card.details.isEmpty {
        html += "<ul style=\"margin:0;padding:0 0 0 20px;font-size:14px;line-height:1.6;\">\n"
        for detail in card.details {
          html += "<li>\(e(detail))</li>\n"
        }
        html += "</ul>\n"
      }
      html += "</div>\n"
    }
    html += """
      <p style="margin:24px 0 0;text-align:center;font-size:12px;color:#7b8794;">\
      \(e(facts.generated))</p>
      </div>
      </body>
      </html>

      """
    return html
  }
}
