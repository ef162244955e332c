import BackofficeCore
import Foundation

struct FundraiserShow: PageView {
  var summary: FundraiserSummary
  var format: PosterFormat
  var chart: FundraiserChart?
  var recent: [JarSnapshotRecordView]
  /// The public page's address while it is on.
  var publicPath: String? = nil
  var stage = StageInfo()
  /// The money and purchases; nil draws no report panel.
  var report: FundraiserReport? = nil

  /// Where the fundraiser is in its life, and the version its moves are made from.
  struct StageInfo: Sendable {
    var stage = FundraiserStage.active
    var version = RecordVersion.first
    var closedAt: Date?
    var reportedAt: Date?

    init() {}

    init(_ record: FundraiserRecord) {
      stage = record.stage
      version = record.version
      closedAt = record.closedAt
      reportedAt = record.reportedAt
    }
  }

  var title: String { L("fundraisers.show.title") }
  var section: NavSection? { .fundraisers }
  var scripts: [String] { ["fundraisers.js"] }

  func content(context: PageContext) -> HTMLNode {
    let id = summary.id
    let svgHref = Routes.fundraiserPoster.href(id: id, query: ["format": format.rawValue])
    let downloadHref = Routes.fundraiserPoster.href(
      id: id, query: ["format": format.rawValue, "download": "1"])
    return H.div(
      [.class("fr")],
      [
        H.p(
          [.class("fr-back")],
          [H.a(Routes.fundraisers.href(), text: L("fundraisers.back_to_list"))]),
        H.div(
          [.class("fr-head")],
          [
            H.h1([.class("fr-title")], [H.text(summary.purpose)]),
            whenWriting(
              context,
              H.div(
                [.class("fr-actions")],
                [
                  H.a(
                    Routes.fundraiserEdit.href(id: id), [.class("button")],
                    text: L("fundraisers.show.edit")),
                  confirmButton(
                    action: Routes.fundraiserDelete.href(id: id), csrf: context.csrf,
                    label: L("fundraisers.delete"), confirm: CampaignMessages.deleteConfirmation,
                    confirmLabel: L("fundraisers.delete_confirm_button")),
                ])),
          ]),
        stagePanel(context: context),
        H.div(
          [.class("fr-show")],
          [
            H.section(
              [.class("fr-poster-panel"), .aria(.label, L("fundraisers.show.poster"))],
              [
                formatSwitch(id: id),
                H.img([
                  .class("fr-poster"), .id("fr-poster"), .src(svgHref),
                  .alt(L("fundraisers.poster_alt", ["purpose": summary.purpose])),
                  .width(String(format.width)),
                  .height(String(format.height)),
                ]),
                H.div(
                  [.class("fr-downloads")],
                  [
                    H.button(
                      [
                        .type("button"), .class("button button-primary"), .id("fr-png"),
                        .data("svg-url", svgHref),
                        .data(
                          "filename",
                          FundraiserPosters.filename(
                            template: summary.template, format: format, "png")),
                        .data("width", String(format.width)),
                        .data("height", String(format.height)),
                        .data("error", L("fundraisers.show.png_failed")),
                        .data(
                          "share-url",
                          publicPath == nil ? "" : Routes.fundraiserShareImage.href(id: id)),
                        .hidden,
                      ], [H.text(L("fundraisers.show.download_png"))]),
                    H.a(
                      downloadHref,
                      [.class("button"), .id("fr-svg"), .download("")],
                      text: L("fundraisers.show.download_svg")),
                  ]),
                H.p(
                  [.class("fr-png-status muted"), .id("fr-png-status"), .aria(.live, "polite")], ""
                ),
              ]),
            H.section(
              [.class("card fr-progress-panel"), .aria(.labelledby, "fr-progress-title")],
              progressPanel(context: context)),
            H.section(
              [.class("card fr-public-panel"), .aria(.labelledby, "fr-public-title")],
              publicPanel(context: context)),
          ]),
        report.map { report in
          H.section(
            [.class("card fr-report-panel"), .aria(.labelledby, "fr-report-title")],
            reportPanel(report, context: context))
        } ?? H.empty,
      ])
  }

  /// The stage with its dates, and the one-step moves from it. Each move asks first (without
  /// scripts too: the first click opens the question) and can be taken back.
  func stagePanel(context: PageContext) -> HTMLNode {
    var line: [HTMLNode] = [
      H.span([.class("fr-stage-label")], L("fundraisers.stage.label")), H.text(" "),
      H.strong(
        [.class("fr-badge fr-stage fr-stage-\(stage.stage.rawValue)"), .id("fr-stage")],
        [H.text(stage.stage.displayName)]),
    ]
    if stage.stage != .active, let closedAt = stage.closedAt {
      line += [
        H.text(" "),
        H.span(
          [.class("fr-meta")],
          [FundraiserFormat.withTime(L("fundraisers.stage.closed_at"), closedAt)]),
      ]
    }
    if stage.stage == .reported, let reportedAt = stage.reportedAt {
      line += [
        H.text(" "),
        H.span(
          [.class("fr-meta")],
          [FundraiserFormat.withTime(L("fundraisers.stage.reported_at"), reportedAt)]),
      ]
    }
    var nodes: [HTMLNode] = [
      H.p([.class("fr-stage-line")], line),
      H.p([.class("hint fr-stage-hint")], stageHint),
    ]
    if context.canWrite {
      nodes.append(
        H.div(
          [.class("fr-stage-moves")],
          stage.stage.next.map { target in stageMove(target, context: context) }))
    }
    return H.section(
      [.class("fr-stage-panel"), .aria(.label, L("fundraisers.stage.label"))], nodes)
  }

  var stageHint: String {
    switch stage.stage {
    case .active: L("fundraisers.stage.hint.active")
    case .closed: L("fundraisers.stage.hint.closed")
    case .reported: L("fundraisers.stage.hint.reported")
    }
  }

  /// One move: a button that opens its question, and the form that makes it.
  func stageMove(_ target: FundraiserStage, context: PageContext) -> HTMLNode {
    let forward = target == .closed && stage.stage == .active || target == .reported
    let label: String
    let question: String
    let confirm: String
    switch (stage.stage, target) {
    case (.active, .closed):
      label = L("fundraisers.stage.move.close")
      question = L("fundraisers.stage.confirm.close")
      confirm = L("fundraisers.stage.confirm_button.close")
    case (.closed, .reported):
      label = L("fundraisers.stage.move.report")
      question = L("fundraisers.stage.confirm.report")
      confirm = L("fundraisers.stage.confirm_button.report")
    case (.closed, .active):
      label = L("fundraisers.stage.move.reopen")
      question = L("fundraisers.stage.confirm.reopen")
      confirm = L("fundraisers.stage.confirm_button.reopen")
    default:
      label = L("fundraisers.stage.move.take_down")
      question = L("fundraisers.stage.confirm.take_down")
      confirm = L("fundraisers.stage.confirm_button.take_down")
    }
    let style = forward ? "button button-primary" : "button"
    return H.details(
      [.class("confirm fr-stage-move"), .data("stage", target.rawValue)],
      [
        H.summary([.class(style)], [H.text(label)]),
        H.div(
          [.class("confirm-panel"), .role("alertdialog")],
          [
            H.p([], question),
            postForm(
              action: Routes.fundraiserStage.href(id: summary.id), csrf: context.csrf,
              attributes: [.class("inline-form")],
              [
                H.input([.type("hidden"), .name("stage"), .value(target.rawValue)]),
                VersionField.hidden(stage.version),
                H.input([.type("hidden"), .name("format"), .value(format.rawValue)]),
                H.button(confirm, [.class(style)]),
              ]),
          ]),
      ])
  }

  /// The thank-you poster in the three formats, once the report is on the public page (its QR
  /// code opens it): SVG downloads, and PNGs drawn by the browser like the campaign poster's.
  func reportPosters(_ report: FundraiserReport) -> HTMLNode {
    guard stage.stage == .reported, publicPath != nil,
      report.currency == FundraiserReport.jarCurrency
    else { return H.empty }
    let id = summary.id
    func href(_ format: PosterFormat, download: Bool = false) -> String {
      Routes.fundraiserReportPoster.href(
        id: id, query: ["format": format.rawValue, "download": download ? "1" : nil])
    }
    return H.div(
      [.class("fr-report-poster")],
      [
        H.h3([.class("fr-purchases-title")], [H.text(L("fundraisers.report_poster.title"))]),
        H.a(
          href(.post), [.target("_blank")],
          [
            H.img([
              .class("fr-report-poster-preview"), .src(href(.post)),
              .alt(L("fundraisers.report_poster.alt", ["purpose": summary.purpose])),
              .width(String(PosterFormat.post.width)), .height(String(PosterFormat.post.height)),
              .loading("lazy"),
            ])
          ]),
        H.ul(
          [.class("fr-report-poster-formats")],
          PosterFormat.allCases.map { format in
            H.li(
              [],
              [
                H.span([.class("fr-report-poster-format")], format.title),
                H.a(
                  href(format, download: true), [.class("button"), .download("")],
                  text: L("fundraisers.show.download_svg")),
                H.button(
                  [
                    .type("button"), .class("button"), .hidden,
                    .data("report-png", ""), .data("svg-url", href(format)),
                    .data(
                      "filename",
                      FundraiserReportPoster.filename(
                        template: summary.template, format: format, "png")),
                    .data("width", String(format.width)),
                    .data("height", String(format.height)),
                    .data("error", L("fundraisers.show.png_failed")),
                  ], [H.text(L("fundraisers.show.download_png"))]),
              ])
          }),
        H.p(
          [.class("fr-png-status muted"), .id("fr-report-png-status"), .aria(.live, "polite")],
          ""),
      ])
  }

  /// Raised, spent and left, then every purchase with its receipts (the owner's full-size
  /// pictures), newest first; links to the expenses behind it.
  func reportPanel(_ report: FundraiserReport, context: PageContext) -> [HTMLNode] {
    let id = summary.id.uuidString.lowercased()
    var nodes: [HTMLNode] = [
      H.h2(L("fundraisers.report.title"), [.id("fr-report-title")]),
      FundraiserReportView.money(report),
    ]
    if report.raised == nil {
      nodes.append(H.p([.class("hint")], L("fundraisers.report.raised_hint")))
    }
    nodes.append(H.h3([.class("fr-purchases-title")], [H.text(L("fundraisers.report.purchases"))]))
    if report.purchases.isEmpty {
      nodes.append(
        H.div(
          [.class("fr-purchases-empty")],
          [
            H.p([.class("muted")], L("fundraisers.report.no_purchases")),
            whenWriting(
              context,
              H.a(
                Routes.expenseNew.href(query: ["fundraiser": id]), [.class("button")],
                text: L("fundraisers.report.add_expense"))),
          ]))
    } else {
      nodes.append(
        FundraiserReportView.purchases(report, hiddenMark: true) { purchase, receipt in
          Routes.expenseReceipt.href([
            "expenseID": purchase.expenseID.uuidString.lowercased(),
            "receiptID": receipt.id.uuidString.lowercased(),
          ])
        })
      if report.purchases.contains(where: { $0.receipts.contains { !$0.isPublic } }) {
        nodes.append(H.p([.class("hint")], L("fundraisers.report.hidden_hint")))
      }
      nodes.append(
        H.p(
          [.class("fr-report-links")],
          [
            H.a(
              Routes.expenses.href(query: ["fundraiser": id]), [],
              text: L("fundraisers.report.expenses_link")),
            whenWriting(
              context,
              H.group([
                H.text(" · "),
                H.a(
                  Routes.expenseNew.href(query: ["fundraiser": id]), [],
                  text: L("fundraisers.report.add_expense")),
              ])),
          ]))
    }
    nodes.append(reportPosters(report))
    return nodes
  }

  func formatSwitch(id: UUID) -> HTMLNode {
    H.nav(
      [.class("fr-formats"), .aria(.label, L("fundraisers.format"))],
      PosterFormat.allCases.map { item in
        H.a(
          Routes.fundraiser.href(id: id, query: ["format": item == .post ? nil : item.rawValue]),
          [
            .class("fr-format"), .data("format", item.rawValue),
            .data(
              "svg-url", Routes.fundraiserPoster.href(id: id, query: ["format": item.rawValue])),
            .data(
              "download-url",
              Routes.fundraiserPoster.href(
                id: id, query: ["format": item.rawValue, "download": "1"])),
            .data(
              "filename",
              FundraiserPosters.filename(template: summary.template, format: item, "png")),
            .data("width", String(item.width)), .data("height", String(item.height)),
          ] + (item == format ? [.aria(.current, "page")] : []),
          text: item.title)
      })
  }

  /// Switching the public page on and off, with its address while it is on.
  func publicPanel(context: PageContext) -> [HTMLNode] {
    let id = summary.id
    var nodes: [HTMLNode] = [H.h2(L("fundraisers.public_panel.title"), [.id("fr-public-title")])]
    if let publicPath {
      nodes += [
        H.p(
          [.class("fr-public-link")],
          [
            H.text(L("fundraisers.public_panel.open_link") + " "),
            H.a(publicPath, [.id("fr-public-url"), .target("_blank")], text: publicPath),
          ]),
        H.p(
          [.class("hint")],
          L("fundraisers.public_panel.open_hint")),
      ]
    } else {
      nodes.append(
        H.p(
          [.class("muted")],
          L("fundraisers.public_panel.closed_hint")))
    }
    let open = publicPath == nil
    guard context.canWrite else { return nodes }
    nodes.append(
      postForm(
        action: Routes.fundraiserPublish.href(id: id), csrf: context.csrf,
        attributes: [.class("fr-public-form")],
        [
          H.input([.type("hidden"), .name("public"), .value(open ? "1" : "0")]),
          H.button(
            open ? L("fundraisers.public_panel.open") : L("fundraisers.public_panel.close"),
            [.class(open ? "button button-primary" : "button")]),
        ]))
    return nodes
  }

  func progressPanel(context: PageContext) -> [HTMLNode] {
    var nodes: [HTMLNode] = [
      H.h2(L("fundraisers.progress_panel.title"), [.id("fr-progress-title")])
    ]
    // A text that asks for a control (“Add a jar”, “Refresh”) is shown only with the
    // control: a viewer, who has neither, is told how things stand.
    guard let jar = summary.jar else {
      nodes.append(
        H.p(
          [.class("muted")],
          context.canWrite
            ? L("fundraisers.progress_panel.no_jar") : L("fundraisers.progress_panel.no_jar_yet")))
      if let target = summary.target {
        nodes.append(
          H.p(
            [.class("fr-goal")], L("fundraisers.goal", ["amount": FundraiserFormat.amount(target)]))
        )
      }
      nodes.append(
        whenWriting(
          context,
          H.a(
            Routes.fundraiserEdit.href(id: summary.id), [.class("button")],
            text: L("fundraisers.progress_panel.add_jar"))))
      return nodes
    }
    nodes.append(
      H.p(
        [.class("fr-jar")],
        [
          H.text(L("fundraisers.progress_panel.jar") + " "),
          H.a(
            jar.link, [.rel("noopener noreferrer"), .target("_blank")],
            text: jar.link),
        ]))
    if summary.state.lastGood == nil && summary.state.lastError == nil {
      nodes.append(
        H.p(
          [.class("muted")],
          context.canWrite && stage.stage.asksJar
            ? L("fundraisers.progress_panel.no_data") : L("fundraisers.figures.no_data_yet")))
    }
    nodes += FundraiserFigures.lines(summary, detailed: true)
    if !stage.stage.asksJar {
      nodes.append(H.p([.class("hint")], L("fundraisers.progress_panel.not_asked")))
    }
    nodes.append(
      !stage.stage.asksJar
        ? H.empty
        : whenWriting(
          context,
          postForm(
            action: Routes.fundraiserRefresh.href(id: summary.id), csrf: context.csrf,
            attributes: [.class("fr-refresh")],
            [H.button(L("fundraisers.progress_panel.refresh"), [.class("button")])])))
    if let chart, !chart.points.isEmpty {
      nodes.append(
        H.figure(
          [.class("fr-chart-figure")],
          [
            chart.render(),
            H.figcaption(
              [.class("muted small")],
              [
                H.text(
                  L(
                    "fundraisers.progress_panel.chart_caption",
                    count: Int(FundraisersController.chartDays)))
              ]),
          ]))
    }
    if !recent.isEmpty {
      nodes.append(
        H.details(
          [.class("fr-history")],
          [
            H.summary([], [H.text(L("fundraisers.history.title"))]),
            H.ul(
              [.class("fr-history-list")],
              recent.map { row in
                H.li(
                  [.class(row.ok ? "" : "fr-warn")],
                  [FundraiserFormat.time(row.takenAt), H.text(" — " + row.text)])
              }),
          ]))
    }
    return nodes
  }
}

/// One line of the refresh history.
struct JarSnapshotRecordView: Sendable {
  var takenAt: Date
  var ok: Bool
  var text: String

  init(_ record: JarSnapshotRecord) {
    takenAt = record.takenAt
    ok = record.ok
    if let value = record.value {
      text =
        FundraiserFormat.amount(value.amount)
        + (value.status == .closed ? ", \(JarStatus.closed.title.lowercased())" : "")
    } else {
      text = L(
        "fundraisers.history.failed", ["error": JarFetchError.describe(stored: record.error ?? "")])
    }
  }
}
