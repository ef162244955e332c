import BackofficeCore
import Foundation

struct FundraiserShow: PageView {
  var summary: FundraiserSummary
  var format: PosterFormat
  var chart: FundraiserChart?
  var recent: [JarSnapshotRecordView]
  /// The public page's address while it is on.
  var publicPath: String? = nil

  var title: String { "Збір" }
  var section: NavSection? { .fundraisers }
  var scripts: [String] { ["fundraisers.js"] }

  func content(context: PageContext) -> HTMLNode {
    let id = summary.id
    let svgHref = Routes.fundraiserPoster.href(id: id, query: ["format": format.rawValue])
    let downloadHref = Routes.fundraiserPoster.href(
      id: id, query: ["format": format.rawValue, "download": "1"])
    return H.div(
      [.class("fr"), .lang("uk")],
      [
        H.p([.class("fr-back")], [H.a(Routes.fundraisers.href(), text: "← Збори")]),
        H.div(
          [.class("fr-head")],
          [
            H.h1([.class("fr-title")], [H.text(summary.purpose)]),
            H.div(
              [.class("fr-actions")],
              [
                H.a(Routes.fundraiserEdit.href(id: id), [.class("button")], text: "Редагувати"),
                confirmButton(
                  action: Routes.fundraiserDelete.href(id: id), csrf: context.csrf,
                  label: "Видалити", confirm: CampaignMessages.deleteConfirmation,
                  confirmLabel: "Так, видалити"),
              ]),
          ]),
        H.div(
          [.class("fr-show")],
          [
            H.section(
              [.class("fr-poster-panel"), .aria(.label, "Постер")],
              [
                formatSwitch(id: id),
                H.img([
                  .class("fr-poster"), .id("fr-poster"), .src(svgHref),
                  .alt("Постер збору: \(summary.purpose)"),
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
                        .data("error", "Не вдалося створити PNG. Спробуйте ще раз."),
                        .data(
                          "share-url",
                          publicPath == nil ? "" : Routes.fundraiserShareImage.href(id: id)),
                        .hidden,
                      ], [H.text("Завантажити PNG")]),
                    H.a(
                      downloadHref,
                      [.class("button"), .id("fr-svg"), .download("")],
                      text: "Завантажити SVG"),
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
      [.class("fr-formats"), .aria(.label, "Формат")],
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
    var nodes: [HTMLNode] = [H.h2("Публічна сторінка", [.id("fr-public-title")])]
    if let publicPath {
      nodes += [
        H.p(
          [.class("fr-public-link")],
          [
            H.text("Сторінка відкрита для всіх за посиланням: "),
            H.a(publicPath, [.id("fr-public-url"), .target("_blank")], text: publicPath),
          ]),
        H.p(
          [.class("hint")],
          "Там лише постер, призначення, прогрес і банка. Картинка для прев'ю посилання "
            + "оновлюється, коли ви завантажуєте PNG."),
      ]
    } else {
      nodes.append(
        H.p(
          [.class("muted")],
          "Сторінка збору без входу в акаунт: постер, прогрес банки, кнопка і QR-код. "
            + "Зручно поширювати в соцмережах."))
    }
    let open = publicPath == nil
    nodes.append(
      postForm(
        action: Routes.fundraiserPublish.href(id: id), csrf: context.csrf,
        attributes: [.class("fr-public-form")],
        [
          H.input([.type("hidden"), .name("public"), .value(open ? "1" : "0")]),
          H.button(
            open ? "Відкрити публічну сторінку" : "Закрити сторінку",
            [.class(open ? "button button-primary" : "button")]),
        ]))
    return nodes
  }

  func progressPanel(context: PageContext) -> [HTMLNode] {
    var nodes: [HTMLNode] = [H.h2("Прогрес збору", [.id("fr-progress-title")])]
    guard let jar = summary.jar else {
      nodes.append(
        H.p(
          [.class("muted")],
          "Додайте посилання на банку Monobank, щоб бачити, скільки вже зібрано."))
      if let target = summary.target {
        nodes.append(H.p([.class("fr-goal")], "Ціль: \(FundraiserFormat.amount(target))"))
      }
      nodes.append(
        H.a(Routes.fundraiserEdit.href(id: summary.id), [.class("button")], text: "Додати банку"))
      return nodes
    }
    nodes.append(
      H.p(
        [.class("fr-jar")],
        [
          H.text("Банка: "),
          H.a(
            jar.link, [.rel("noopener noreferrer"), .target("_blank")],
            text: jar.link),
        ]))
    if summary.state.lastGood == nil && summary.state.lastError == nil {
      nodes.append(H.p([.class("muted")], "Даних з банки ще немає: натисніть «Оновити»."))
    }
    nodes += FundraiserFigures.lines(summary, detailed: true)
    nodes.append(
      postForm(
        action: Routes.fundraiserRefresh.href(id: summary.id), csrf: context.csrf,
        attributes: [.class("fr-refresh")],
        [H.button("Оновити", [.class("button")])]))
    if let chart, !chart.points.isEmpty {
      nodes.append(
        H.figure(
          [.class("fr-chart-figure")],
          [
            chart.render(),
            H.figcaption(
              [.class("muted small")],
              [H.text("Зібрано за останні \(Int(FundraisersController.chartDays)) днів")]),
          ]))
    }
    if !recent.isEmpty {
      nodes.append(
        H.details(
          [.class("fr-history")],
          [
            H.summary([], [H.text("Історія оновлень")]),
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
      text = "не вдалося: \(record.error ?? "")"
    }
  }
}
