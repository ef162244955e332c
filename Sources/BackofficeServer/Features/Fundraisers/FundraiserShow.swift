import BackofficeCore
import Foundation

struct FundraiserShow: PageView {
  var summary: FundraiserSummary
  var format: PosterFormat
  var chart: FundraiserChart?
  var recent: [JarSnapshotRecordView]
  /// The public page's address while it is on.
  var publicPath: String? = nil

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
      ])
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
          context.canWrite
            ? L("fundraisers.progress_panel.no_data") : L("fundraisers.figures.no_data_yet")))
    }
    nodes += FundraiserFigures.lines(summary, detailed: true)
    nodes.append(
      whenWriting(
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
