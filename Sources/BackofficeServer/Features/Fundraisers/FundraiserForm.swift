import BackofficeCore
import Foundation

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
  /// On for a new fundraiser: the QR code shows as soon as there is a jar.
  var showQR = true
  var callToAction = ""
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

  static var changedMessage: String { L("fundraisers.form.changed") }

  /// "Saved now: …" for `field`, when the saved value differs.
  func savedNode(_ field: String) -> HTMLNode {
    savedValue(field)?.render(id: "field-\(field)-saved") ?? H.empty
  }

  func savedValue(_ field: String) -> SavedValue? {
    saved[field].map {
      SavedValue(
        text: $0, label: L("fundraisers.form.saved_now"), empty: L("fundraisers.form.saved_empty"))
    }
  }

  var title: String { mode == .create ? L("fundraisers.new") : L("fundraisers.form.edit_title") }
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
      "jar_link": jarLink.isEmpty ? nil : jarLink, "show_qr": showQR ? "1" : nil,
      "call_to_action": callToAction.isEmpty ? nil : callToAction,
      "photo": previewMode == "thumb" ? nil : previewPhotoID?.uuidString.lowercased(),
      "scale": previewMode == "thumb" ? nil : String(placement.scale),
      "offset_x": previewMode == "thumb" ? nil : String(placement.offsetX),
      "offset_y": previewMode == "thumb" ? nil : String(placement.offsetY),
      "mode": previewMode,
    ]
  }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("fr")],
      [
        H.p(
          [.class("fr-back")],
          [
            editingID.map {
              H.a(Routes.fundraiser.href(id: $0), text: L("fundraisers.form.back_to_fundraiser"))
            } ?? H.a(Routes.fundraisers.href(), text: L("fundraisers.back_to_list"))
          ]),
        H.h1(title),
        conflict.map(conflictNotice) ?? H.empty,
        formError.map { H.div([.class("form-error"), .role("alert")], [H.text($0)]) }
          ?? H.empty,
        errors.isEmpty
          ? H.empty
          : H.div(
            [.class("form-error"), .role("alert")],
            [H.text(L("fundraisers.form.check_fields"))]),
        postForm(
          action: action, csrf: context.csrf,
          attributes: [
            .class("fr-form"), .id("fr-form"), .novalidate,
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
                H.button(L("fundraisers.form.save"), [.class("button button-primary")]),
                H.a(
                  editingID.map { Routes.fundraiser.href(id: $0) } ?? Routes.fundraisers.href(),
                  [.class("button")], text: L("fundraisers.form.cancel")),
              ]),
          ]),
        editingID.map { id in
          H.div(
            [.class("fr-danger-zone")],
            [
              confirmButton(
                action: Routes.fundraiserDelete.href(id: id), csrf: context.csrf,
                label: L("fundraisers.delete"), confirm: CampaignMessages.deleteConfirmation,
                confirmLabel: L("fundraisers.delete_confirm_button"))
            ])
        } ?? H.empty,
      ])
  }

  var fields: [HTMLNode] {
    let purposeField = FieldView(name: "purpose", label: CampaignField.purpose.label)
    // No maxlength: a pasted text stays whole and the counter and the message say how much
    // to shorten, instead of the browser dropping the end without a word.
    var purposeAttrs: [Attr] = [
      .id(purposeField.id), .name("purpose"), .rows("4"),
      .data("max-length", String(CampaignDraft.purposeMaxLength)),
      .aria(.describedby, "\(purposeField.id)-count"),
    ]
    if errors[.purpose] != nil {
      purposeAttrs =
        purposeAttrs.filter { $0.name != "aria-describedby" } + [
          .aria(.invalid, "true"),
          .aria(.describedby, "\(purposeField.id)-count \(purposeField.id)-error"),
        ]
    }
    let purposeCount = purpose.trimmingCharacters(in: .whitespacesAndNewlines).count
    let purposeOver = purposeCount - CampaignDraft.purposeMaxLength
    let ctaField = FieldView(name: "call_to_action", label: CampaignField.callToAction.label)
    let photoField = FieldView(name: "photo", label: L("fundraisers.form.photo"))
    var photoAttrs: [Attr] = [
      .id(photoField.id), .name("photo"), .type("file"),
      .accept("image/jpeg,image/png"), .aria(.describedby, "\(photoField.id)-hint"),
    ]
    if errors[.image] != nil {
      photoAttrs =
        photoAttrs.filter { $0.name != "aria-describedby" } + [
          .aria(.invalid, "true"),
          .aria(.describedby, "\(photoField.id)-hint \(photoField.id)-error"),
        ]
    }
    let photoHint: String =
      if draftPhotoID != nil {
        L("fundraisers.form.photo_hint_draft")
      } else if photoID != nil {
        L("fundraisers.form.photo_hint_keep")
      } else {
        L("fundraisers.form.photo_hint_new", ["size": CampaignPhotoError.size(maxUploadBytes)])
      }
    return [
      H.div(
        [.class(errors[.purpose] == nil ? "field" : "field field-invalid")],
        [
          H.label([.`for`(purposeField.id)], [H.text(CampaignField.purpose.label)]),
          H.textarea(purposeAttrs, [H.text(purpose)]),
          H.p(
            [
              .class(
                purposeCount > CampaignDraft.purposeMaxLength
                  ? "hint fr-count fr-count-over" : "hint fr-count"),
              .id("\(purposeField.id)-count"), .aria(.live, "polite"),
            ],
            purposeOver > 0
              ? L(
                "fundraisers.form.purpose_count_over",
                [
                  "count": String(purposeCount), "max": String(CampaignDraft.purposeMaxLength),
                  "over": String(purposeOver),
                ])
              : L(
                "fundraisers.form.purpose_count",
                ["count": String(purposeCount), "max": String(CampaignDraft.purposeMaxLength)])),
          savedNode("purpose"),
          FieldView(name: "purpose", label: "", error: errors[.purpose]).errorNode,
        ]),
      FieldView(
        name: "target", label: CampaignField.target.label, value: target, error: errors[.target],
        hint: L("fundraisers.form.target_hint"), autocomplete: "off",
        extra: [.inputmode("decimal")], saved: savedValue("target")
      ).render(),
      FieldView(
        name: "jar_link", label: CampaignField.jarLink.label, value: jarLink,
        error: errors[.jarLink], hint: L("fundraisers.form.jar_link_hint"),
        autocomplete: "off", extra: [.inputmode("url"), .spellcheck("false")],
        saved: savedValue("jar_link")
      ).render(),
      H.div(
        [.class(errors[.image] == nil ? "field" : "field field-invalid")],
        [
          H.label([.`for`(photoField.id)], [H.text(L("fundraisers.form.photo"))]),
          H.input(photoAttrs),
          H.p([.class("hint"), .id("\(photoField.id)-hint")], photoHint),
          FieldView(name: "photo", label: "", error: errors[.image]).errorNode,
          draftPhotoID.map {
            H.input([.type("hidden"), .name("photo_draft"), .value($0.uuidString.lowercased())])
          } ?? H.empty,
        ]),
      H.div(
        [.class("field fr-switch")],
        [
          H.label(
            [.`for`("field-show_progress")],
            [
              H.input(
                [
                  .type("checkbox"), .id("field-show_progress"), .name("show_progress"),
                  .value("1"), .role("switch"),
                ] + (showProgress ? [.checked] : [])),
              H.text(" " + L("fundraisers.form.show_progress")),
            ]),
          H.p([.class("hint")], L("fundraisers.form.show_progress_hint")),
          savedNode("show_progress"),
        ]),
      H.div(
        [.class("field fr-switch")],
        [
          H.label(
            [.`for`("field-show_qr")],
            [
              H.input(
                [
                  .type("checkbox"), .id("field-show_qr"), .name("show_qr"), .value("1"),
                  .role("switch"),
                ] + (showQR ? [.checked] : [])),
              H.text(" " + L("fundraisers.form.show_qr")),
            ]),
          H.p([.class("hint")], L("fundraisers.form.show_qr_hint")),
          savedNode("show_qr"),
        ]),
      FieldView(
        name: "call_to_action", label: ctaField.label, value: callToAction,
        error: errors[.callToAction],
        // The poster's own words stay Ukrainian in every language; an English page says what
        // they mean and that they are Ukrainian.
        hint: L(
          "fundraisers.form.call_to_action_hint",
          [
            "default": L("fundraisers.public.default_call_to_action"),
            "max": String(CampaignDraft.callToActionMaxLength),
          ]),
        autocomplete: "off",
        // The poster's own default as the placeholder where it is in the page's language; the
        // English hint gives its meaning instead.
        extra: UILanguage.current == .uk ? [.placeholder(CampaignDraft.defaultCallToAction)] : [],
        saved: savedValue("call_to_action")
      ).render(),
    ]
  }

  var templatePicker: HTMLNode {
    H.fieldset(
      [
        .class(errors[.template] == nil ? "fr-templates-field" : "fr-templates-field field-invalid")
      ] + (errors[.template] == nil ? [] : [.aria(.describedby, "field-template-error")]),
      [
        H.legend([], [H.text(L("fundraisers.form.choose_template"))]),
        savedNode("template"),
        FieldView(name: "template", label: "", error: errors[.template]).errorNode,
        H.div(
          [.class("fr-templates")],
          PosterTemplate.allCases.map { item in
            H.label(
              [.class("fr-template")],
              [
                H.input(
                  [
                    .type("radio"), .name("template"), .value(String(item.number)),
                    .class("fr-template-radio"),
                  ] + (item == template ? [.checked] : [])),
                H.img([
                  .class("fr-template-thumb"),
                  .src(
                    Routes.fundraiserPreview.href(
                      query: previewQuery(template: item, mode: "thumb"))),
                  .alt(""), .width("1080"), .height("1080"),
                  .loading("lazy"), .decoding("async"),
                ]),
                H.span([.class("fr-template-name")], "\(item.number). \(item.title)"),
              ])
          }),
      ])
  }

  var preview: HTMLNode {
    H.section(
      [.class("fr-preview-panel"), .aria(.labelledby, "fr-preview-title")],
      [
        H.h2(L("fundraisers.form.preview"), [.id("fr-preview-title")]),
        H.fieldset(
          [.class("fr-formats")],
          [H.legend([.class("fr-sr-only")], [H.text(L("fundraisers.format"))])]
            + PosterFormat.allCases.map { item in
              H.label(
                [.class("fr-format")],
                [
                  H.input(
                    [.type("radio"), .name("format"), .value(item.rawValue)]
                      + (item == format ? [.checked] : [])),
                  H.text(" " + item.title),
                ])
            }),
        H.div(
          [
            .class("fr-preview"), .id("fr-preview"), .role("group"),
            .aria(.roledescription, L("fundraisers.form.photo_editor")),
            .aria(.label, L("fundraisers.form.photo_editor_label")),
            .aria(.describedby, "fr-preview-help"),
          ],
          [
            template.map { chosen in
              H.img([
                .class("fr-preview-image"),
                .src(
                  Routes.fundraiserPreview.href(
                    query: previewQuery(template: chosen, mode: "image"))),
                .alt(L("fundraisers.form.preview_alt")),
                .width(String(format.width)), .height(String(format.height)),
              ])
            } ?? H.p([.class("fr-preview-empty")], L("fundraisers.form.preview_empty"))
          ]),
        H.div(
          [.class("fr-zoom"), .id("fr-zoom"), .hidden],
          [
            H.button(
              [
                .type("button"), .class("button"), .data("zoom", "out"),
                .aria(.label, L("fundraisers.form.zoom_out")),
              ],
              [H.text("−")]),
            H.button(
              [
                .type("button"), .class("button"), .data("zoom", "in"),
                .aria(.label, L("fundraisers.form.zoom_in")),
              ],
              [H.text("+")]),
            H.button(
              [.type("button"), .class("button"), .data("zoom", "reset")],
              [H.text(L("fundraisers.form.zoom_reset"))]),
          ]),
        savedNode("placement"),
        H.p(
          [.class("hint"), .id("fr-preview-help")],
          L("fundraisers.form.preview_help")),
        H.input([.type("hidden"), .name("scale"), .id("fr-scale"), .value(String(placement.scale))]
        ),
        H.input([
          .type("hidden"), .name("offset_x"), .id("fr-offset-x"),
          .value(String(placement.offsetX)),
        ]),
        H.input([
          .type("hidden"), .name("offset_y"), .id("fr-offset-y"),
          .value(String(placement.offsetY)),
        ]),
      ])
  }
}
