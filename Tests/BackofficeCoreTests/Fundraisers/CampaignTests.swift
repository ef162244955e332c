import Foundation
import Testing

@testable import BackofficeCore

private let link = "https://send.monobank.ua/jar/8Xd9vZqKpL"

private func validDraft() -> CampaignDraft {
  CampaignDraft(
    purpose: "На дрон для 47 бригади",
    targetText: "15 000",
    jarLinkText: link,
    hasPhoto: true,
    template: .linearGreen
  )
}

@Suite("Campaign validation", .ukrainian)
struct CampaignTests {
  @Test func validDraftBecomesCampaign() throws {
    var draft = validDraft()
    draft.showProgress = true
    draft.imagePlacement = ImagePlacement(scale: 1.5, offsetX: 20, offsetY: -10)
    let campaign = try draft.validate()
    #expect(campaign.purpose == "На дрон для 47 бригади")
    #expect(campaign.target == 15000)
    #expect(campaign.jar?.rawValue == "8Xd9vZqKpL")
    #expect(campaign.template == .linearGreen)
    #expect(campaign.imagePlacement == ImagePlacement(scale: 1.5, offsetX: 20, offsetY: -10))
    #expect(campaign.showProgress)
  }

  @Test func optionalFieldsMayBeBlank() throws {
    var draft = validDraft()
    draft.targetText = "  "
    draft.jarLinkText = "\n"
    let campaign = try draft.validate()
    #expect(campaign.target == nil)
    #expect(campaign.jar == nil)
  }

  @Test func purposeIsTrimmed() throws {
    var draft = validDraft()
    draft.purpose = "  \n Рядок один\r\nрядок два \t"
    #expect(try draft.validate().purpose == "Рядок один\nрядок два")
  }

  @Test func emptyDraftReportsEveryRequiredField() {
    do {
      _ = try CampaignDraft().validate()
      Issue.record("an empty draft was accepted")
    } catch {
      #expect(error.fields == [.purpose, .image, .template])
      #expect(error[.purpose] == "Поле не може бути пустим")
      #expect(error[.image] == "Необхідно вибрати зображення")
      #expect(error[.template] == "Необхідно вибрати шаблон")
      #expect(error[.target] == nil)
      #expect(error[.jarLink] == nil)
    }
  }

  @Test(
    "field rules and messages",
    arguments: [
      (CampaignField.purpose, "", "Поле не може бути пустим"),
      (.purpose, "   \n\t ", "Поле не може бути пустим"),
      (
        .purpose, String(repeating: "я", count: 612),
        "Не більше 500 символів: зараз 612, приберіть 112"
      ),
      (
        .callToAction, String(repeating: "Ґ", count: 41),
        "Не більше 40 символів: зараз 41, приберіть 1"
      ),
      (.callToAction, "Долучайся\nсьогодні", "Заклик має бути в один рядок"),
      (.target, "abc", "Неправильний формат"),
      (.target, "15 тисяч", "Неправильний формат"),
      (.target, "1 5000", "Неправильний формат"),
      (.target, "-100", "Сума не може бути від'ємною"),
      (.target, "0", "Сума має бути більшою за нуль"),
      (.target, "0,00", "Сума має бути більшою за нуль"),
      (.target, "10,555", "Неправильний формат: не більше двох знаків після коми"),
      (.target, "1000000000000", "Занадто велика сума"),
      (
        .jarLink, "monobank",
        "Неправильний формат URL. Вставте посилання на банку, наприклад "
          + "https://send.monobank.ua/jar/…"
      ),
      (
        .jarLink, "https://example.com/jar/8Xd9vZqKpL",
        "Неправильний формат URL. Це не посилання на банку Monobank: очікується "
          + "https://send.monobank.ua/jar/…"
      ),
    ])
  func fieldRule(field: CampaignField, value: String, message: String) {
    var draft = validDraft()
    switch field {
    case .purpose: draft.purpose = value
    case .target: draft.targetText = value
    case .jarLink: draft.jarLinkText = value
    case .callToAction: draft.callToAction = value
    case .image, .template: Issue.record("not a text field")
    }
    do {
      _ = try draft.validate()
      Issue.record("\(value) was accepted")
    } catch {
      #expect(error.fields == [field])
      #expect(error[field] == message)
    }
  }

  @Test func jarLinkMessagesStartWithOriginalText() {
    var draft = validDraft()
    draft.jarLinkText = "https://send.monobank.ua/jar/x"
    #expect {
      try draft.validate()
    } throws: { error in
      (error as? CampaignValidationErrors)?[.jarLink]?.hasPrefix("Неправильний формат URL") == true
    }
  }

  @Test(
    "purpose length limit counts characters",
    arguments: [(200, true), (499, true), (500, true), (501, false)])
  func purposeLimit(length: Int, accepted: Bool) {
    var draft = validDraft()
    draft.purpose = String(repeating: "ї", count: length)
    #expect(((try? draft.validate()) != nil) == accepted)
  }

  @Test("call to action: trimmed, blank means the default, up to 40 characters")
  func callToAction() throws {
    var draft = validDraft()
    draft.jarLinkText = "https://send.monobank.ua/jar/8Xd9vZqKpL"
    draft.callToAction = "  \u{200B} "
    var campaign = try draft.validate()
    #expect(campaign.callToAction == "")
    #expect(campaign.posterShare?.callToAction == "Долучайся!")
    #expect(campaign.posterShare?.link == "https://send.monobank.ua/jar/8Xd9vZqKpL")
    #expect(campaign.posterShare?.linkText == "send.monobank.ua/jar/8Xd9vZqKpL")
    draft.callToAction = "  " + String(repeating: "ї", count: 40) + " "
    campaign = try draft.validate()
    #expect(campaign.callToAction == String(repeating: "ї", count: 40))
    #expect(campaign.posterShare?.callToAction == campaign.callToAction)
  }

  @Test("the QR code needs a jar and the switch on")
  func qrNeedsJarAndSwitch() throws {
    var draft = validDraft()
    draft.jarLinkText = ""
    #expect(try draft.validate().posterShare == nil)
    draft.jarLinkText = "https://send.monobank.ua/jar/8Xd9vZqKpL"
    #expect(try draft.validate().posterShare != nil)
    draft.showQR = false
    #expect(try draft.validate().posterShare == nil)
    #expect(CampaignDraft(editing: try draft.validate()).showQR == false)
  }

  @Test func targetAcceptsDecimalComma() throws {
    var draft = validDraft()
    draft.targetText = "15000,50 грн"
    #expect(try draft.validate().target == Decimal(string: "15000.5"))
  }

  @Test func noPhotoAndNoTemplate() {
    var draft = validDraft()
    draft.hasPhoto = false
    draft.template = nil
    #expect(throws: CampaignValidationErrors.self) { try draft.validate() }
    do {
      _ = try draft.validate()
    } catch {
      #expect(error.fields == [.image, .template])
    }
  }

  @Test func editingDraftRoundTrips() throws {
    var draft = validDraft()
    draft.targetText = "1234567,5"
    let campaign = try draft.validate()
    let again = CampaignDraft(editing: campaign)
    #expect(again.targetText == "1\u{00A0}234\u{00A0}567,50")
    #expect(again.jarLinkText == link)
    #expect(again.hasPhoto)
    #expect(try again.validate() == campaign)
  }

  @Test func errorsEncodeAsFieldObject() throws {
    var errors = CampaignValidationErrors()
    errors[.purpose] = CampaignMessages.empty
    errors[.template] = CampaignMessages.noTemplate
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(errors)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"purpose":"Поле не може бути пустим","template":"Необхідно вибрати шаблон"}"#)
    #expect(try JSONDecoder().decode(CampaignValidationErrors.self, from: data) == errors)
  }

  @Test func campaignCodableRoundTrip() throws {
    let campaign = try validDraft().validate()
    let data = try JSONEncoder().encode(campaign)
    #expect(try JSONDecoder().decode(Campaign.self, from: data) == campaign)
  }

  @Test func fieldLabels() {
    #expect(CampaignField.purpose.label == "Призначення збору")
    #expect(CampaignField.target.label == "Сума збору (не обов'язково)")
    #expect(CampaignField.jarLink.label == "Банка збору (не обов'язково)")
    #expect(
      CampaignField.allCases.map(\.rawValue) == [
        "purpose", "target", "jarLink", "image", "template", "callToAction",
      ])
  }
}

@Suite("Image placement")
struct ImagePlacementTests {
  @Test(
    "clamping",
    arguments: [
      (ImagePlacement(scale: 1, offsetX: 0, offsetY: 0), ImagePlacement.identity),
      (
        ImagePlacement(scale: 0.05, offsetX: 10, offsetY: -10),
        ImagePlacement(scale: 0.1, offsetX: 10, offsetY: -10)
      ),
      (
        ImagePlacement(scale: 0, offsetX: 0, offsetY: 0),
        ImagePlacement(scale: 0.1, offsetX: 0, offsetY: 0)
      ),
      (
        ImagePlacement(scale: -2, offsetX: 0, offsetY: 0),
        ImagePlacement(scale: 0.1, offsetX: 0, offsetY: 0)
      ),
      (
        ImagePlacement(scale: 50, offsetX: 0, offsetY: 0),
        ImagePlacement(scale: 10, offsetX: 0, offsetY: 0)
      ),
      (ImagePlacement(scale: .nan, offsetX: .infinity, offsetY: .nan), ImagePlacement.identity),
      (
        ImagePlacement(scale: 1, offsetX: 500, offsetY: -500),
        ImagePlacement(scale: 1, offsetX: 300, offsetY: -300)
      ),
      (
        ImagePlacement(scale: 2, offsetX: 500, offsetY: -700),
        ImagePlacement(scale: 2, offsetX: 500, offsetY: -600)
      ),
      (
        ImagePlacement(scale: 0.5, offsetX: 301, offsetY: 299),
        ImagePlacement(scale: 0.5, offsetX: 300, offsetY: 299)
      ),
    ])
  func clamping(input: ImagePlacement, expected: ImagePlacement) {
    #expect(input.clamped() == expected)
  }

  @Test func validationClampsPlacement() throws {
    var draft = validDraft()
    draft.imagePlacement = ImagePlacement(scale: 0.01, offsetX: 1000, offsetY: 0)
    #expect(
      try draft.validate().imagePlacement == ImagePlacement(scale: 0.1, offsetX: 300, offsetY: 0))
  }

  @Test func offsetScalesToSlot() {
    let placement = ImagePlacement(scale: 1, offsetX: 30, offsetY: -15)
    let offset = placement.offset(forSide: 1080)
    #expect(offset.x == 108)
    #expect(offset.y == -54)
  }
}
