import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Receipts on expenses and an expense's fundraiser: the form, the list, the pictures, the API,
/// the CSV export and the limits, each for the owner's workspace only.
@Suite("Expense receipts and fundraisers")
struct ExpenseReceiptTests {
  static let png = ProductImages.png(width: 40, height: 60)
  static let jpeg = ProductImages.jpeg(width: 30, height: 20)

  static func receipts(_ expense: UUID, db: any Database) async throws -> [ExpenseReceiptTable] {
    try await ExpenseReceiptTable.query(on: db).filter(\.$expenseID == expense)
      .sort(\.$position).all()
  }

  @Test func theFormStoresReceiptsAndTheFundraiserAndTheListShowsThem() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let fundraiser = try await client.addFundraiser(purpose: "Дрон для розвідки")
      let id = try await client.addExpenseWithReceipts(
        title: "Mavic 3", amount: "1200", fundraiser: fundraiser,
        receipts: [(Self.png, "receipt.png"), (Self.jpeg, "IMG_0001.jpg")], isPublic: true,
        db: t.db)
      let record = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(record.fundraiserID == fundraiser)
      let stored = try await Self.receipts(id, db: t.db)
      #expect(stored.map(\.mime) == ["image/png", "image/jpeg"])
      #expect(stored.map(\.position) == [0, 1])
      #expect(stored.allSatisfy { $0.isPublic })
      #expect(stored.first?.data == Self.png, "kept exactly as uploaded")

      let list = try await client.get("/expenses")
      let first = try #require(stored.first?.id?.uuidString)
      #expect(list.body.contains("/expenses/\(id.uuidString)/receipts/\(first)"))
      #expect(list.body.contains("Дрон для розвідки"))
      let picture = try await client.get("/expenses/\(id.uuidString)/receipts/\(first)")
      #expect(picture.status == .ok)
      #expect(picture.headers.first(name: .contentType) == "image/png")

      // The list filtered by the fundraiser has only its expenses.
      try await client.addExpense(title: "Coffee", amount: "3", db: t.db)
      let filtered = try await client.get(
        "/expenses?fundraiser=\(fundraiser.uuidString.lowercased())")
      #expect(filtered.body.contains("Mavic 3"))
      #expect(!filtered.body.contains("Coffee"))
      let all = try await client.get("/expenses")
      #expect(all.body.contains("Coffee"))
      #expect(try await client.get("/expenses?fundraiser=nope").status == .unprocessableEntity)

      // "Add an expense" from the fundraiser comes with it picked.
      let new = try await client.get(
        "/expenses/new?fundraiser=\(fundraiser.uuidString.lowercased())")
      #expect(new.body.contains("value=\"\(fundraiser.uuidString.lowercased())\" selected"))
    }
  }

  @Test func receiptsArePrivateByDefaultAndNeverAnotherWorkspaces() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addExpenseWithReceipts(
        title: "Tape", amount: "5", receipts: [(Self.png, "r.png")], db: t.db)
      let receipt = try #require(try await Self.receipts(id, db: t.db).first)
      #expect(receipt.isPublic == false)
      let path = "/expenses/\(id.uuidString)/receipts/\(try receipt.requireID().uuidString)"

      let stranger = t.client()
      try await stranger.signUp()
      #expect(try await stranger.get(path).status == .notFound)
      let token = try await stranger.createToken()
      let api = try await stranger.expensesAPI(
        .GET, "/api/v1/expenses/\(id.uuidString)/receipts/\(try receipt.requireID().uuidString)",
        token: token)
      #expect(api.status == .notFound)
      // The stranger's own expense with the owner's receipt id finds nothing either.
      let theirs = try await stranger.addExpense(title: "Mine", amount: "1", db: t.db)
      #expect(
        try await stranger.get(
          "/expenses/\(theirs.uuidString)/receipts/\(try receipt.requireID().uuidString)"
        ).status == .notFound)
      // Nor can they link their expense to the owner's fundraiser.
      let fundraiser = try await owner.addFundraiser()
      try await stranger.get("/expenses/new")
      let refused = try await stranger.postExpenseForm(fields: [
        ("title", "Sneaky"), ("amount", "1"), ("fundraiser", fundraiser.uuidString),
      ])
      #expect(refused.status == .unprocessableEntity)
      #expect(refused.body.contains("not in this workspace"))
      #expect(try await ExpenseTable.query(on: t.db).filter(\.$title == "Sneaky").count() == 0)
    }
  }

  @Test func badFilesAndTooManyAreRefusedByTheFieldAndNothingIsSaved() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/expenses/new")
      let notImage = try await client.postExpenseForm(
        fields: [("title", "Bad"), ("amount", "1")],
        receipts: [(Data("not a picture".utf8), "../../etc/passwd")])
      #expect(notImage.status == .unprocessableEntity)
      #expect(notImage.body.contains("field-receipts"))
      #expect(
        notImage.body.contains("field field-invalid") || notImage.body.contains("aria-invalid"))
      #expect(notImage.body.contains("value=\"Bad\""), "what was typed stays")

      let eleven = Array(repeating: (Self.png, "r.png"), count: 11)
      let tooMany = try await client.postExpenseForm(
        fields: [("title", "Many"), ("amount", "1")], receipts: eleven)
      #expect(tooMany.status == .unprocessableEntity)
      #expect(tooMany.body.contains("at most 10 receipts"))

      // A good photo with a bad title: the form says to choose the photo again.
      let badTitle = try await client.postExpenseForm(
        fields: [("title", ""), ("amount", "1")], receipts: [(Self.png, "r.png")])
      #expect(badTitle.status == .unprocessableEntity)
      #expect(badTitle.body.contains("choose it once more"))

      // Over the size limit: 413 with the form, by the field.
      let large = ProductImages.png(padding: t.app.config.maxUploadBytes)
      let tooLarge = try await client.postExpenseForm(
        fields: [("title", "Large"), ("amount", "1")], receipts: [(large, "big.png")])
      #expect(tooLarge.status == .payloadTooLarge)
      #expect(tooLarge.body.contains("field-receipts"))

      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
      #expect(try await ExpenseReceiptTable.query(on: t.db).count() == 0)
    }
  }

  @Test func theEditFormPublishesRemovesAndAddsReceipts() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let fundraiser = try await client.addFundraiser()
      let id = try await client.addExpenseWithReceipts(
        title: "Batteries", amount: "80", fundraiser: fundraiser,
        receipts: [(Self.png, "a.png"), (Self.jpeg, "b.jpg")], db: t.db)
      let before = try await Self.receipts(id, db: t.db)
      let (first, second) = (try before[0].requireID(), try before[1].requireID())
      let version = try #require(try await ExpenseTable.find(id, on: t.db)).version

      let edit = try await client.get("/expenses/\(id.uuidString)/edit")
      #expect(edit.body.contains("name=\"public_receipts[]\""))
      #expect(edit.body.contains("value=\"\(fundraiser.uuidString.lowercased())\" selected"))
      let saved = try await client.postExpenseForm(
        "/expenses/\(id.uuidString)",
        fields: [
          ("title", "Batteries"), ("amount", "80"), ("category", "Personal"),
          ("fundraiser", fundraiser.uuidString.lowercased()), ("receipts_listed", "1"),
          ("public_receipts[]", first.uuidString.lowercased()),
          ("remove_receipts[]", second.uuidString.lowercased()),
        ],
        receipts: [(Self.jpeg, "c.jpg")])
      #expect(saved.status == .seeOther, "\(saved.body)")
      let after = try await Self.receipts(id, db: t.db)
      #expect(after.count == 2)
      #expect(after.first?.id == first)
      #expect(after.first?.isPublic == true)
      #expect(after.last?.isPublic == false, "new receipts stay hidden unless ticked")
      #expect(after.last?.position == 1, "after the one kept")
      let record = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(record.version == version + 1)

      // A form without the receipts section (an older page) leaves them as they are; an
      // empty fundraiser unlinks.
      try await client.get("/expenses/\(id.uuidString)/edit")
      let plain = try await client.postExpenseForm(
        "/expenses/\(id.uuidString)",
        fields: [("title", "Batteries"), ("amount", "80"), ("fundraiser", "")])
      #expect(plain.status == .seeOther, "\(plain.body)")
      #expect(try await Self.receipts(id, db: t.db).map(\.isPublic) == [true, false])
      #expect(try #require(try await ExpenseTable.find(id, on: t.db)).fundraiserID == nil)
    }
  }

  @Test func theAPICarriesTheFundraiserAndTheReceipts() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let fundraiser = try await client.addFundraiser()
      let token = try await client.createToken()
      let created = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token,
        json: #"{"title": "Drone", "amount": "1000", "fundraiser_id": "\#(fundraiser)"}"#)
      #expect(created.status == .created, "\(created.body)")
      let item = try created.json()
      let id = try #require(item["id"] as? String)
      #expect(item["fundraiser_id"] as? String == fundraiser.uuidString.lowercased())
      #expect((item["receipts"] as? [Any])?.isEmpty == true)

      let base = "/api/v1/expenses/\(id)/receipts"
      let added = try await client.expensesAPI(
        .POST, base, token: token,
        json: #"{"photo": "\#(Self.png.base64EncodedString())", "public": true}"#)
      #expect(added.status == .created, "\(added.body)")
      #expect(added.headers.first(name: .eTag) == "\"2\"")
      let receipt = try added.json()
      let receiptID = try #require(receipt["id"] as? String)
      #expect(receipt["public"] as? Bool == true)
      #expect(receipt["type"] as? String == "image/png")
      #expect(receipt["url"] as? String == "\(base)/\(receiptID)")

      let bytes = try await client.expensesAPI(.GET, "\(base)/\(receiptID)", token: token)
      #expect(bytes.status == .ok)
      #expect(bytes.headers.first(name: .contentType) == "image/png")

      let hidden = try await client.expensesAPI(
        .PATCH, "\(base)/\(receiptID)", token: token, json: #"{"public": false}"#)
      #expect(hidden.status == .ok, "\(hidden.body)")
      #expect(try hidden.json()["public"] as? Bool == false)
      let noFlag = try await client.expensesAPI(
        .PATCH, "\(base)/\(receiptID)", token: token, json: #"{}"#)
      #expect(noFlag.status == .unprocessableEntity)

      let read = try await client.expensesAPI(.GET, "/api/v1/expenses/\(id)", token: token)
      let listed = try #require(try read.json()["receipts"] as? [[String: Any]])
      #expect(listed.count == 1)
      #expect(listed.first?["public"] as? Bool == false)

      // A PUT without the field keeps the link; null removes it; a stranger's id is refused.
      let kept = try await client.expensesAPI(
        .PUT, "/api/v1/expenses/\(id)", token: token, json: #"{"title": "Drone", "amount": "999"}"#)
      #expect(try kept.json()["fundraiser_id"] as? String == fundraiser.uuidString.lowercased())
      let wrong = try await client.expensesAPI(
        .PUT, "/api/v1/expenses/\(id)", token: token,
        json: #"{"title": "Drone", "amount": "999", "fundraiser_id": "\#(UUID())"}"#)
      #expect(wrong.status == .unprocessableEntity)
      let error = try #require(try wrong.json()["error"] as? [String: Any])
      #expect((error["fields"] as? [String: String])?["fundraiser_id"] != nil)
      let number = try await client.expensesAPI(
        .PUT, "/api/v1/expenses/\(id)", token: token,
        json: #"{"title": "Drone", "amount": "999", "fundraiser_id": 7}"#)
      #expect(number.status == .unprocessableEntity)
      let unlinked = try await client.expensesAPI(
        .PUT, "/api/v1/expenses/\(id)", token: token,
        json: #"{"title": "Drone", "amount": "999", "fundraiser_id": null}"#)
      #expect(try unlinked.json()["fundraiser_id"] is NSNull)

      let filtered = try await client.expensesAPI(
        .GET, "/api/v1/expenses?fundraiser=\(fundraiser.uuidString)", token: token)
      #expect(try (filtered.json()["items"] as? [Any])?.isEmpty == true)

      // Not base64, not a picture, and the eleventh receipt.
      let garbage = try await client.expensesAPI(
        .POST, base, token: token, json: #"{"photo": "%%%"}"#)
      #expect(garbage.status == .unprocessableEntity)
      let text = try await client.expensesAPI(
        .POST, base, token: token,
        json: #"{"photo": "\#(Data("hello".utf8).base64EncodedString())"}"#)
      #expect(text.status == .unprocessableEntity)
      for _ in 0..<9 {
        let more = try await client.expensesAPI(
          .POST, base, token: token, json: #"{"photo": "\#(Self.jpeg.base64EncodedString())"}"#)
        #expect(more.status == .created)
      }
      let eleventh = try await client.expensesAPI(
        .POST, base, token: token, json: #"{"photo": "\#(Self.jpeg.base64EncodedString())"}"#)
      #expect(eleventh.status == .conflict)

      let removed = try await client.expensesAPI(.DELETE, "\(base)/\(receiptID)", token: token)
      #expect(removed.status == .noContent)
      #expect(
        try await client.expensesAPI(.GET, "\(base)/\(receiptID)", token: token).status
          == .notFound)

      // Deleting the expense deletes its receipts.
      let expenseID = try #require(UUID(uuidString: id))
      #expect(try await Self.receipts(expenseID, db: t.db).count == 9)
      let deleted = try await client.expensesAPI(.DELETE, "/api/v1/expenses/\(id)", token: token)
      #expect(deleted.status == .noContent)
      #expect(try await ExpenseReceiptTable.query(on: t.db).count() == 0)
    }
  }

  @Test func receiptWritesHonourIfMatch() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token, json: #"{"title": "Tea", "amount": "2"}"#)
      let id = try #require(try created.json()["id"] as? String)
      var headers = HTTPHeaders()
      headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)")
      headers.replaceOrAdd(name: .contentType, value: "application/json")
      headers.replaceOrAdd(name: .ifMatch, value: "\"5\"")
      let stale = try await client.send(
        .POST, "/api/v1/expenses/\(id)/receipts", headers: headers,
        body: #"{"photo": "\#(Self.png.base64EncodedString())"}"#)
      #expect(stale.status == .preconditionFailed)
      #expect(try await ExpenseReceiptTable.query(on: t.db).count() == 0)
    }
  }

  @Test func theCSVExportNamesTheFundraiser() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let fundraiser = try await client.addFundraiser(purpose: "=Дрон, \"Мавік\"")
      try await client.addExpenseWithReceipts(
        title: "Mavic", amount: "10", fundraiser: fundraiser, receipts: [], db: t.db)
      let csv = try await client.get("/expenses/export.csv")
      #expect(csv.body.hasPrefix("\u{FEFF}date,title,category,amount,fundraiser\r\n"))
      #expect(csv.body.contains(",Mavic,Personal,10.00,\"'=Дрон, \"\"Мавік\"\"\"\r\n"))
      // The file imports back: the extra column is read past.
      let imported = try await client.uploadExpenses(csv.body)
      #expect(imported.status == .seeOther || imported.status == .ok, "\(imported.status)")
    }
  }

  @Test func deletingAFundraiserKeepsItsExpensesUnlinked() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let fundraiser = try await client.addFundraiser()
      let id = try await client.addExpenseWithReceipts(
        title: "Helmet", amount: "90", fundraiser: fundraiser, receipts: [(Self.png, "h.png")],
        db: t.db)
      let before = try #require(try await ExpenseTable.find(id, on: t.db)).version
      let token = try await client.createToken()
      let deleted = try await client.expensesAPI(
        .DELETE, "/api/v1/fundraisers/\(fundraiser.uuidString)", token: token)
      #expect(deleted.status == .noContent, "\(deleted.body)")
      let after = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(after.fundraiserID == nil)
      #expect(after.version == before + 1, "the expense's JSON changed, so its version does")
      #expect(try await Self.receipts(id, db: t.db).count == 1)
    }
  }

  @Test func theLimitHoldsAgainstCraftedFormsAndRacesAndHugeIdLists() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let ten = Array(repeating: (Self.jpeg, "r.jpg"), count: 10)
      let id = try await client.addExpenseWithReceipts(
        title: "Full", amount: "1", receipts: ten, db: t.db)
      let stored = try await Self.receipts(id, db: t.db).map { try $0.requireID() }

      // "Remove" ticks without the list they belong to remove nothing, so they free no room.
      try await client.get("/expenses/\(id.uuidString)/edit")
      let crafted = try await client.postExpenseForm(
        "/expenses/\(id.uuidString)",
        fields: [("title", "Full"), ("amount", "1")]
          + stored.map { ("remove_receipts[]", $0.uuidString) },
        receipts: ten)
      #expect(crafted.status == .unprocessableEntity)
      #expect(try await Self.receipts(id, db: t.db).count == 10)

      // Whoever checked the count before another save got in: the save's own transaction
      // counts again and takes nothing of it.
      let workspaceID = try #require(
        try await ExpenseTable.find(id, on: t.db)?.workspaceID)
      let photo = try CheckedPhoto.check(Self.png, maxBytes: 1 << 20).get()
      await #expect(throws: ExpenseReceipts.LimitReached.self) {
        try await t.db.transaction { db in
          _ = try await ExpenseReceipts(db: db, workspaceID: workspaceID).add(
            [photo], isPublic: false, to: id, now: t.clock.now)
        }
      }
      #expect(try await Self.receipts(id, db: t.db).count == 10)

      // Tens of thousands of ids in the ticks (more than a statement may bind) are read past.
      try await client.get("/expenses/\(id.uuidString)/edit")
      let many = (0..<33_000).map { _ in ("public_receipts[]", UUID().uuidString) }
      let huge = try await client.post(
        "/expenses/\(id.uuidString)",
        form: [("title", "Full"), ("amount", "1"), ("receipts_listed", "1")] + many
          + [("public_receipts[]", stored[0].uuidString)])
      #expect(huge.status == .seeOther, "\(huge.status)")
      #expect(try await Self.receipts(id, db: t.db).filter(\.isPublic).count == 1)
    }
  }

  @Test func aDeletedExpensesReceiptsGoWhenItsUndoDoes() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addExpenseWithReceipts(
        title: "Gone", amount: "1", receipts: [(Self.png, "r.png")], db: t.db)
      let receipt = try #require(try await Self.receipts(id, db: t.db).first)
      let path = "/expenses/\(id.uuidString)/receipts/\(try receipt.requireID().uuidString)"
      try await client.get("/expenses")
      #expect(
        try await client.post("/expenses/\(id.uuidString)/delete", form: []).status == .seeOther)
      #expect(try await client.get(path).status == .ok, "while Undo can bring it back")
      t.clock.advance(by: ExpenseStore.undoWindow + 1)
      #expect(try await client.get(path).status == .notFound)
    }
  }

  /// A phone's photo: EXIF with the orientation and the place, after the start of the file.
  static var phoneJPEG: Data {
    var exif: [UInt8] = Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1]
    exif += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0] + Array("GPS Kyiv".utf8)
    let segment = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)]
    let plain = [UInt8](ProductImages.jpeg(width: 30, height: 20))
    return Data(plain.prefix(2) + segment + exif + plain.dropFirst(2))
  }

  @Test func aCampaignPhotoLosesTheCamerasNotesToo() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.expensesAPI(
        .POST, "/api/v1/fundraisers", token: token,
        json:
          #"{"purpose": "Дрон", "template": 3, "photo": "\#(Self.phoneJPEG.base64EncodedString())"}"#
      )
      #expect(created.status == .created, "\(created.body)")
      let stored = try #require(try await FundraiserPhotoTable.query(on: t.db).first())
      #expect(stored.data.range(of: Data("Kyiv".utf8)) == nil)
      #expect(stored.data.range(of: Data([0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6])) != nil)
      #expect(stored.etag == sha256Hex(stored.data))
    }
  }

  @Test func theCamerasNotesAreTakenOutOfEveryReceipt() async throws {
    try await withApp { t in
      let photo = Self.phoneJPEG
      let client = t.client()
      try await client.signUp()
      let id = try await client.addExpenseWithReceipts(
        title: "Phone", amount: "1", receipts: [(photo, "IMG_0042.JPG")], db: t.db)
      let stored = try #require(try await Self.receipts(id, db: t.db).first)
      #expect(stored.data.range(of: Data("Kyiv".utf8)) == nil)
      #expect(stored.data.range(of: Data([0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6])) != nil)
      #expect(stored.etag == sha256Hex(stored.data))
      #expect(stored.width == 30 && stored.height == 20)

      let token = try await client.createToken()
      let added = try await client.expensesAPI(
        .POST, "/api/v1/expenses/\(id.uuidString)/receipts", token: token,
        json: #"{"photo": "\#(photo.base64EncodedString())"}"#)
      #expect(added.status == .created)
      for receipt in try await Self.receipts(id, db: t.db) {
        #expect(receipt.data.range(of: Data("Kyiv".utf8)) == nil)
      }
    }
  }
}
