import BackofficeCore
import Foundation

/// What cards, the page of one fundraiser and the home card say about its money.
struct FundraiserSummary: Sendable {
  var id: UUID
  var purpose: String
  var template: PosterTemplate
  var target: Decimal?
  var jar: JarID?
  var showProgress: Bool
  var state: JarState

  init(_ record: FundraiserRecord, id: UUID, state: JarState) {
    let campaign = record.campaign
    self.id = id
    self.purpose = campaign.purpose
    self.template = campaign.template
    self.target = campaign.target
    self.jar = campaign.jar
    self.showProgress = campaign.showProgress
    self.state = state
  }

  var progress: FundraiserProgress? { state.progress(target: target) }
  /// The amount shown as "Ціль": the target, else the jar's own goal.
  var goal: Decimal? { target ?? state.lastGood?.goal }
  var collected: Decimal? { state.lastGood?.amount }
  var closed: Bool { state.lastGood?.status == .closed }

  func posterHref(_ format: PosterFormat = .post) -> String {
    Routes.fundraiserPoster.href(id: id, query: ["format": format.rawValue])
  }
}

/// The money lines shared by cards and the fundraiser page.
enum FundraiserFigures {
  static func progressBar(_ progress: FundraiserProgress) -> HTMLNode {
    H.div(
      [.class("fr-progress")],
      [
        H.p([.class("fr-progress-label")], progress.label),
        H.el(
          "progress",
          [
            .class("fr-progress-bar"), .custom("max", "100"),
            .value(String(min(100, max(0, progress.percent)))),
            .aria("label", progress.label),
          ], [H.text("\(progress.percent)%")]),
      ])
  }

  static func lines(_ summary: FundraiserSummary, detailed: Bool) -> [HTMLNode] {
    var nodes: [HTMLNode] = []
    if let progress = summary.progress { nodes.append(progressBar(progress)) }
    if let goal = summary.goal {
      nodes.append(H.p([.class("fr-goal")], "Ціль: \(FundraiserFormat.amount(goal))"))
    }
    if let collected = summary.collected {
      nodes.append(
        H.p([.class("fr-collected")], "Зібрано: \(FundraiserFormat.amount(collected))"))
    }
    if summary.closed {
      nodes.append(H.p([.class("fr-badge fr-closed")], JarStatus.closed.title))
    } else if detailed, summary.state.lastGood != nil {
      nodes.append(H.p([.class("fr-badge fr-active")], JarStatus.active.title))
    }
    if let takenAt = summary.state.lastGoodAt {
      nodes.append(
        H.el(
          "p", [.class("fr-meta")],
          [H.text("Дані від "), FundraiserFormat.time(takenAt)]))
    }
    if let error = summary.state.lastError {
      if detailed {
        nodes.append(
          H.el(
            "p", [.class("fr-warn"), .custom("role", "status")],
            [
              H.text("Не вдалося оновити: \(error)."),
              summary.state.lastAttemptAt.map { at in
                H.group([H.text(" Спроба "), FundraiserFormat.time(at), H.text(".")])
              } ?? H.empty,
              summary.state.lastGoodAt.map { at in
                H.group([H.text(" Показано дані від "), FundraiserFormat.time(at), H.text(".")])
              } ?? H.text(" Даних з банки ще немає."),
            ]))
      } else {
        nodes.append(H.p([.class("fr-warn")], "Не вдалося оновити"))
      }
    }
    return nodes
  }
}

// MARK: - list

struct FundraiserIndex: PageView {
  var cards: [FundraiserSummary]
  var page: Int = 1
  var pageCount: Int = 1
  var total: Int

  static let perPage = 24

  var title: String { "Збори" }
  var section: NavSection? { .fundraisers }
  var scripts: [String] { ["fundraisers.js"] }

  func content(context: PageContext) -> HTMLNode {
    let anyJar = cards.contains { $0.jar != nil }
    return H.div(
      [.class("fr"), .custom("lang", "uk")],
      [
        H.div(
          [.class("fr-head")],
          [
            H.h1("Збори"),
            H.div(
              [.class("fr-actions")],
              [
                H.a(
                  Routes.fundraiserNew.href(),
                  [.class("button button-primary"), .aria("label", "Новий збір")],
                  [H.el("span", [.aria("hidden", "true")], [H.text("+ ")]), H.text("Новий збір")]),
                anyJar
                  ? postForm(
                    action: Routes.fundraiserRefreshAll.href(), csrf: context.csrf,
                    attributes: [.class("inline-form")],
                    [H.button("Оновити прогрес", [.class("button")])])
                  : H.empty,
              ]),
          ]),
        total == 0
          ? emptyState(
            title: "Створіть свою першу обкладинку для збору коштів",
            message: "Допомагайте тим, хто цього потребує",
            action: H.a(
              Routes.fundraiserNew.href(), [.class("button button-primary")], text: "Новий збір"))
          : H.el("ul", [.class("fr-grid")], cards.map(card)),
        pagination,
      ])
  }

  func card(_ summary: FundraiserSummary) -> HTMLNode {
    H.el(
      "li", [.class("fr-card"), .id("fundraiser-\(summary.id.uuidString.lowercased())")],
      [
        H.a(
          Routes.fundraiser.href(id: summary.id), [.class("fr-card-link")],
          [
            H.void(
              "img",
              [
                .class("fr-card-preview"), .custom("src", summary.posterHref()),
                .custom("alt", ""), .custom("width", "1080"), .custom("height", "1080"),
                .custom("loading", "lazy"), .custom("decoding", "async"),
              ]),
            H.span([.class("fr-card-purpose")], summary.purpose),
          ]),
        H.div([.class("fr-card-body")], FundraiserFigures.lines(summary, detailed: false)),
      ])
  }

  var pagination: HTMLNode {
    guard pageCount > 1 else { return H.empty }
    return H.el(
      "nav", [.class("fr-pagination"), .aria("label", "Сторінки")],
      [
        page > 1
          ? H.a(
            Routes.fundraisers.href(query: ["page": page > 2 ? String(page - 1) : nil]),
            [.class("button"), .custom("rel", "prev")], text: "← Попередня")
          : H.empty,
        H.span([.class("muted")], "Сторінка \(page) з \(pageCount)"),
        page < pageCount
          ? H.a(
            Routes.fundraisers.href(query: ["page": String(page + 1)]),
            [.class("button"), .custom("rel", "next")], text: "Наступна →")
          : H.empty,
      ])
  }
}

// MARK: - one fundraiser

struct FundraiserShow: PageView {
  var summary: FundraiserSummary
  var format: PosterFormat
  var chart: FundraiserChart?
  var recent: [JarSnapshotRecordView]

  var title: String { "Збір" }
  var section: NavSection? { .fundraisers }
  var scripts: [String] { ["fundraisers.js"] }

  func content(context: PageContext) -> HTMLNode {
    let id = summary.id
    let svgHref = Routes.fundraiserPoster.href(id: id, query: ["format": format.rawValue])
    let downloadHref = Routes.fundraiserPoster.href(
      id: id, query: ["format": format.rawValue, "download": "1"])
    return H.div(
      [.class("fr"), .custom("lang", "uk")],
      [
        H.el("p", [.class("fr-back")], [H.a(Routes.fundraisers.href(), text: "← Збори")]),
        H.div(
          [.class("fr-head")],
          [
            H.el("h1", [.class("fr-title")], [H.text(summary.purpose)]),
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
              [.class("fr-poster-panel"), .aria("label", "Постер")],
              [
                formatSwitch(id: id),
                H.void(
                  "img",
                  [
                    .class("fr-poster"), .id("fr-poster"), .custom("src", svgHref),
                    .custom("alt", "Постер збору: \(summary.purpose)"),
                    .custom("width", String(format.width)),
                    .custom("height", String(format.height)),
                  ]),
                H.div(
                  [.class("fr-downloads")],
                  [
                    H.el(
                      "button",
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
                        .flag("hidden"),
                      ], [H.text("Завантажити PNG")]),
                    H.a(
                      downloadHref,
                      [.class("button"), .id("fr-svg"), .custom("download", "")],
                      text: "Завантажити SVG"),
                  ]),
                H.p(
                  [.class("fr-png-status muted"), .id("fr-png-status"), .aria("live", "polite")], ""
                ),
              ]),
            H.section(
              [.class("card fr-progress-panel"), .aria("labelledby", "fr-progress-title")],
              progressPanel(context: context)),
          ]),
      ])
  }

  func formatSwitch(id: UUID) -> HTMLNode {
    H.el(
      "nav", [.class("fr-formats"), .aria("label", "Формат")],
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
          ] + (item == format ? [.aria("current", "page")] : []),
          text: item.title)
      })
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
      H.el(
        "p", [.class("fr-jar")],
        [
          H.text("Банка: "),
          H.a(
            jar.link, [.custom("rel", "noopener noreferrer"), .custom("target", "_blank")],
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
        H.el(
          "figure", [.class("fr-chart-figure")],
          [
            H.raw(chart.render()),
            H.el(
              "figcaption", [.class("muted small")],
              [H.text("Зібрано за останні \(Int(FundraisersController.chartDays)) днів")]),
          ]))
    }
    if !recent.isEmpty {
      nodes.append(
        H.el(
          "details", [.class("fr-history")],
          [
            H.el("summary", [], [H.text("Історія оновлень")]),
            H.el(
              "ul", [.class("fr-history-list")],
              recent.map { row in
                H.el(
                  "li", [.class(row.ok ? "" : "fr-warn")],
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

// MARK: - form

struct FundraiserForm: PageView {
  enum Mode: Sendable, Equatable {
    case create
    case edit(UUID)
  }

  var mode: Mode
  var purpose = ""
  var target = ""
  var jarLink = ""
  var template: PosterTemplate? = nil
  var placement = ImagePlacement.identity
  var showProgress = false
  var format = PosterFormat.post
  /// The saved photo of the fundraiser being edited.
  var photoID: UUID? = nil
  /// A photo uploaded with a form that did not pass, kept for the next try.
  var draftPhotoID: UUID? = nil
  var errors: [CampaignField: String] = [:]
  var formError: String? = nil
  var maxUploadBytes = ImageUpload.defaultMaxBytes
  /// The version the form was opened at (edit); see `RecordVersion`.
  var version = 0
  /// Set when a save was refused because the fundraiser changed meanwhile (409).
  var conflict: String? = nil
  /// What is saved now where it differs from the form, keyed `purpose`, `target`, `jar_link`,
  /// `template`, `show_progress`, `placement`; already in words.
  var saved: [String: String] = [:]

  static let changedMessage =
    "Цей збір змінили після того, як ви його відкрили (в іншій вкладці або інша людина), тому "
    + "ваші зміни ще не збережено. Усе, що ви ввели, залишилося у формі; там, де збережений збір "
    + "тепер інший, під полем показано збережене значення. Натисніть «Зберегти» ще раз, щоб "
    + "залишити свою версію."

  /// "Збережено зараз: …" for `field`, when the saved value differs.
  func savedNode(_ field: String) -> HTMLNode {
    saved[field].map {
      SavedValue(text: $0, label: "Збережено зараз:", empty: "(порожньо)")
        .render(id: "field-\(field)-saved")
    } ?? H.empty
  }

  func savedValue(_ field: String) -> SavedValue? {
    saved[field].map { SavedValue(text: $0, label: "Збережено зараз:", empty: "(порожньо)") }
  }

  var title: String { mode == .create ? "Новий збір" : "Редагувати збір" }
  var section: NavSection? { .fundraisers }
  var scripts: [String] { ["fundraisers.js"] }

  var editingID: UUID? {
    if case .edit(let id) = mode { return id }
    return nil
  }

  /// The photo the preview shows: a new upload waiting in drafts, else the saved one.
  var previewPhotoID: UUID? { draftPhotoID ?? photoID }

  var action: String {
    switch mode {
    case .create: Routes.fundraiserCreate.href()
    case .edit(let id): Routes.fundraiserUpdate.href(id: id)
    }
  }

  /// Query of the preview endpoint for the values on the form.
  func previewQuery(template: PosterTemplate, mode previewMode: String) -> [String: String?] {
    [
      "template": String(template.number), "format": format.rawValue,
      "purpose": purpose.isEmpty ? nil : purpose, "target": target.isEmpty ? nil : target,
      "show_progress": showProgress ? "1" : nil, "id": editingID?.uuidString.lowercased(),
      "photo": previewMode == "thumb" ? nil : previewPhotoID?.uuidString.lowercased(),
      "scale": previewMode == "thumb" ? nil : String(placement.scale),
      "offset_x": previewMode == "thumb" ? nil : String(placement.offsetX),
      "offset_y": previewMode == "thumb" ? nil : String(placement.offsetY),
      "mode": previewMode,
    ]
  }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("fr"), .custom("lang", "uk")],
      [
        H.el(
          "p", [.class("fr-back")],
          [
            editingID.map { H.a(Routes.fundraiser.href(id: $0), text: "← Назад до збору") }
              ?? H.a(Routes.fundraisers.href(), text: "← Збори")
          ]),
        H.h1(title),
        conflict.map(conflictNotice) ?? H.empty,
        formError.map { H.div([.class("form-error"), .custom("role", "alert")], [H.text($0)]) }
          ?? H.empty,
        errors.isEmpty
          ? H.empty
          : H.div(
            [.class("form-error"), .custom("role", "alert")],
            [H.text("Перевірте поля, позначені нижче.")]),
        postForm(
          action: action, csrf: context.csrf,
          attributes: [
            .class("fr-form"), .id("fr-form"), .custom("novalidate", ""),
            .data("preview-url", Routes.fundraiserPreview.href()),
            .data("id", editingID?.uuidString.lowercased() ?? ""),
            .data("photo", previewPhotoID?.uuidString.lowercased() ?? ""),
            .data("min-scale", String(ImagePlacement.minimumScale)),
            .data("max-scale", String(ImagePlacement.maximumScale)),
            .data("reference-side", String(ImagePlacement.referenceSide)),
          ], multipart: true,
          [
            editingID == nil ? H.empty : VersionField.hidden(version),
            H.div(
              [.class("fr-form-grid")],
              [
                H.div([.class("fr-fields stack")], fields),
                H.div([.class("fr-editor")], [templatePicker, preview]),
              ]),
            H.div(
              [.class("fr-form-actions")],
              [
                H.button("Зберегти", [.class("button button-primary")]),
                H.a(
                  editingID.map { Routes.fundraiser.href(id: $0) } ?? Routes.fundraisers.href(),
                  [.class("button")], text: "Скасувати"),
              ]),
          ]),
        editingID.map { id in
          H.div(
            [.class("fr-danger-zone")],
            [
              confirmButton(
                action: Routes.fundraiserDelete.href(id: id), csrf: context.csrf,
                label: "Видалити", confirm: CampaignMessages.deleteConfirmation,
                confirmLabel: "Так, видалити")
            ])
        } ?? H.empty,
      ])
  }

  var fields: [HTMLNode] {
    let purposeField = FieldView(name: "purpose", label: CampaignField.purpose.label)
    var purposeAttrs: [Attr] = [
      .id(purposeField.id), .name("purpose"), .custom("rows", "3"),
      .custom("maxlength", String(CampaignDraft.purposeMaxLength)),
    ]
    if errors[.purpose] != nil {
      purposeAttrs += [.aria("invalid", "true"), .aria("describedby", "\(purposeField.id)-error")]
    }
    let photoField = FieldView(name: "photo", label: "Обрати фото з бібліотеки")
    var photoAttrs: [Attr] = [
      .id(photoField.id), .name("photo"), .type("file"),
      .custom("accept", "image/jpeg,image/png"), .aria("describedby", "\(photoField.id)-hint"),
    ]
    if errors[.image] != nil {
      photoAttrs =
        photoAttrs.filter { $0.name != "aria-describedby" } + [
          .aria("invalid", "true"),
          .aria("describedby", "\(photoField.id)-hint \(photoField.id)-error"),
        ]
    }
    let photoHint: String =
      if draftPhotoID != nil {
        "Фото вже завантажено. Оберіть інше, щоб замінити його."
      } else if photoID != nil {
        "Залиште порожнім, щоб зберегти поточне фото."
      } else {
        "JPEG або PNG, до \(CampaignPhotoError.size(maxUploadBytes))."
      }
    return [
      H.div(
        [.class(errors[.purpose] == nil ? "field" : "field field-invalid")],
        [
          H.el("label", [.custom("for", purposeField.id)], [H.text(CampaignField.purpose.label)]),
          H.el("textarea", purposeAttrs, [H.text(purpose)]),
          savedNode("purpose"),
          FieldView(name: "purpose", label: "", error: errors[.purpose]).errorNode,
        ]),
      FieldView(
        name: "target", label: CampaignField.target.label, value: target, error: errors[.target],
        hint: "Наприклад: 15 000 або 15000,50", autocomplete: "off",
        extra: [.custom("inputmode", "decimal")], saved: savedValue("target")
      ).render(),
      FieldView(
        name: "jar_link", label: CampaignField.jarLink.label, value: jarLink,
        error: errors[.jarLink], hint: "Посилання на банку: https://send.monobank.ua/jar/…",
        autocomplete: "off", extra: [.custom("inputmode", "url"), .custom("spellcheck", "false")],
        saved: savedValue("jar_link")
      ).render(),
      H.div(
        [.class(errors[.image] == nil ? "field" : "field field-invalid")],
        [
          H.el("label", [.custom("for", photoField.id)], [H.text("Обрати фото з бібліотеки")]),
          H.void("input", photoAttrs),
          H.p([.class("hint"), .id("\(photoField.id)-hint")], photoHint),
          FieldView(name: "photo", label: "", error: errors[.image]).errorNode,
          draftPhotoID.map {
            H.void(
              "input",
              [.type("hidden"), .name("photo_draft"), .value($0.uuidString.lowercased())])
          } ?? H.empty,
        ]),
      H.div(
        [.class("field fr-switch")],
        [
          H.el(
            "label", [.custom("for", "field-show_progress")],
            [
              H.void(
                "input",
                [
                  .type("checkbox"), .id("field-show_progress"), .name("show_progress"),
                  .value("1"), .custom("role", "switch"),
                ] + (showProgress ? [.flag("checked")] : [])),
              H.text(" Показувати на постері зібрану суму і прогрес"),
            ]),
          H.p([.class("hint")], "Потрібна банка: постер оновлюється разом із прогресом."),
          savedNode("show_progress"),
        ]),
    ]
  }

  var templatePicker: HTMLNode {
    H.el(
      "fieldset",
      [
        .class(errors[.template] == nil ? "fr-templates-field" : "fr-templates-field field-invalid")
      ] + (errors[.template] == nil ? [] : [.aria("describedby", "field-template-error")]),
      [
        H.el("legend", [], [H.text("Обрати шаблон")]),
        savedNode("template"),
        FieldView(name: "template", label: "", error: errors[.template]).errorNode,
        H.div(
          [.class("fr-templates")],
          PosterTemplate.allCases.map { item in
            H.el(
              "label", [.class("fr-template")],
              [
                H.void(
                  "input",
                  [
                    .type("radio"), .name("template"), .value(String(item.number)),
                    .class("fr-template-radio"),
                  ] + (item == template ? [.flag("checked")] : [])),
                H.void(
                  "img",
                  [
                    .class("fr-template-thumb"),
                    .custom(
                      "src",
                      Routes.fundraiserPreview.href(
                        query: previewQuery(template: item, mode: "thumb"))),
                    .custom("alt", ""), .custom("width", "1080"), .custom("height", "1080"),
                    .custom("loading", "lazy"), .custom("decoding", "async"),
                  ]),
                H.span([.class("fr-template-name")], "\(item.number). \(item.title)"),
              ])
          }),
      ])
  }

  var preview: HTMLNode {
    H.section(
      [.class("fr-preview-panel"), .aria("labelledby", "fr-preview-title")],
      [
        H.h2("Попередній перегляд", [.id("fr-preview-title")]),
        H.el(
          "fieldset", [.class("fr-formats")],
          [H.el("legend", [.class("fr-sr-only")], [H.text("Формат")])]
            + PosterFormat.allCases.map { item in
              H.el(
                "label", [.class("fr-format")],
                [
                  H.void(
                    "input",
                    [.type("radio"), .name("format"), .value(item.rawValue)]
                      + (item == format ? [.flag("checked")] : [])),
                  H.text(" " + item.title),
                ])
            }),
        H.div(
          [
            .class("fr-preview"), .id("fr-preview"), .custom("role", "group"),
            .aria("roledescription", "редактор фото"),
            .aria(
              "label",
              "Фото на постері. Перетягніть, щоб змістити; коліщатко або щипок — масштаб. "
                + "З клавіатури: стрілки зміщують, + і − змінюють масштаб, 0 скидає."),
            .aria("describedby", "fr-preview-help"),
          ],
          [
            template.map { chosen in
              H.void(
                "img",
                [
                  .class("fr-preview-image"),
                  .custom(
                    "src",
                    Routes.fundraiserPreview.href(
                      query: previewQuery(template: chosen, mode: "image"))),
                  .custom("alt", "Попередній перегляд постера"),
                  .custom("width", String(format.width)), .custom("height", String(format.height)),
                ])
            } ?? H.p([.class("fr-preview-empty")], "Оберіть шаблон, щоб побачити постер.")
          ]),
        H.div(
          [.class("fr-zoom"), .id("fr-zoom"), .flag("hidden")],
          [
            H.el(
              "button",
              [
                .type("button"), .class("button"), .data("zoom", "out"), .aria("label", "Зменшити"),
              ],
              [H.text("−")]),
            H.el(
              "button",
              [
                .type("button"), .class("button"), .data("zoom", "in"), .aria("label", "Збільшити"),
              ],
              [H.text("+")]),
            H.el(
              "button", [.type("button"), .class("button"), .data("zoom", "reset")],
              [H.text("Скинути")]),
          ]),
        savedNode("placement"),
        H.p(
          [.class("hint"), .id("fr-preview-help")],
          "Перетягніть фото, щоб змістити його; прокрутіть коліщатко або зведіть пальці, щоб "
            + "змінити масштаб. Вибір іншого шаблону скидає положення фото."),
        H.void(
          "input",
          [.type("hidden"), .name("scale"), .id("fr-scale"), .value(String(placement.scale))]),
        H.void(
          "input",
          [
            .type("hidden"), .name("offset_x"), .id("fr-offset-x"),
            .value(String(placement.offsetX)),
          ]),
        H.void(
          "input",
          [
            .type("hidden"), .name("offset_y"), .id("fr-offset-y"),
            .value(String(placement.offsetY)),
          ]),
      ])
  }
}
