import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Fills an account with something in every area, through the app's own forms where it has
/// them, and returns the account's id (its records live in the workspace it created).
@discardableResult
private func fillAccount(_ t: TestApp, _ client: TestClient, email: String) async throws -> UUID {
  try await client.signUp(email: email)
  try await client.switchLocaleForExpenses("de-DE", currency: "EUR")
  let user = try #require(try await Accounts.find(email: email, on: t.db))
  let userID = try user.requireID()
  let workspaceID = try await t.workspaceID(ofUser: userID)

  let chair = try await client.addProduct(
    name: "Stuhl Åland", type: "Möbel", price: "129,90", tax: "19", photo: ProductImages.png(),
    db: t.db)
  try await client.addProduct(name: "Lampe", type: "Licht", price: "1.234,50", tax: "7", db: t.db)
  try await client.get("/products")
  #expect(
    try await client.post("/products/\(chair.uuidString)/favorite", form: [("favorite", "1")])
      .status == .seeOther)

  try await client.addExpense(title: "Mittagessen", amount: "12,50", category: "Food", db: t.db)
  try await client.addExpense(
    title: "Taxi zum Flughafen", amount: "48,10", category: "Transport",
    date: "2026-11-03T08:15", db: t.db)
  let gone = try await client.addExpense(title: "Gelöscht", amount: "1", db: t.db)
  let deleted = try #require(try await ExpenseTable.find(gone, on: t.db))
  deleted.deletedAt = t.clock.now
  try await deleted.save(on: t.db)

  try await client.addAdPayment(name: "Spring ads", url: "https://pay.example.com/a?b=1", db: t.db)

  var plan = MarketingPlanRecord(
    workspaceID: workspaceID, name: "Herbst",
    selection: PlanSelection(targetNames: ["Moms", "Dads"], chosenPackageIDs: ["tv": "gold"]),
    recipient: "boss@example.com")
  plan.subject = "Unser Plan"
  try await MarketingPlanQueries.create(&plan, on: t.db)

  let fundraiser = try await client.addFundraiser(purpose: "На дрон", showProgress: true)
  // Not the defaults, so the round trip shows both are carried.
  let stored = try #require(await FundraiserTable.find(fundraiser, on: t.db))
  stored.showQR = false
  stored.callToAction = "Разом до перемоги!"
  stored.stage = .closed
  stored.closedAt = t.clock.now
  try await stored.save(on: t.db)
  // Spent for the fundraiser, with two receipts, one of them public.
  let bought = try await client.addExpenseWithReceipts(
    title: "Akkus", amount: "80", fundraiser: fundraiser,
    receipts: [(ProductImages.png(), "a.png"), (ProductImages.jpeg(), "b.jpg")], db: t.db)
  let first = try #require(
    try await ExpenseReceiptTable.query(on: t.db).filter(\.$expenseID == bought)
      .filter(\.$position == 0).first())
  first.isPublic = true
  try await first.save(on: t.db)
  let snapshots = [
    JarSnapshotRecord(
      fundraiserID: fundraiser, jarID: try #require(JarID(rawValue: "StubJar001")),
      takenAt: t.clock.now,
      result: .success(
        JarSnapshotValue(
          amountKopiykas: 1_234_567, goalKopiykas: 5_000_000, status: .active,
          serviceStatus: "ACTIVE"))),
    JarSnapshotRecord(
      fundraiserID: fundraiser, jarID: try #require(JarID(rawValue: "StubJar001")),
      takenAt: t.clock.now.addingTimeInterval(60),
      result: .failure(.timeout)),
  ]
  for snapshot in snapshots { try await JarSnapshots.store(snapshot, on: t.db) }
  return userID
}

/// The backup of the workspace the account `userID` created, as that account exports it.
private func export(_ t: TestApp, _ userID: UUID) async throws -> AccountBackup {
  try await AccountBackup.export(
    workspaceID: try await t.workspaceID(ofUser: userID), person: userID, on: t.db,
    now: Date(timeIntervalSince1970: 1_800_000_000))
}

private func makeUser(_ t: TestApp, _ email: String) async throws -> UUID {
  let user = User(email: email, passwordHash: "x", locale: "en-US", currency: "USD")
  _ = try await Accounts.create(user, on: t.db)
  return try user.requireID()
}

/// The file without record ids, for comparing accounts on the same server.
private func withoutIDs(_ backup: AccountBackup) -> AccountBackup {
  var copy = backup
  let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  copy.account.email = ""
  for index in copy.products.items.indices { copy.products.items[index].id = zero }
  for index in copy.expenses.indices {
    copy.expenses[index].id = zero
    copy.expenses[index].fundraiserId = copy.expenses[index].fundraiserId.map { _ in zero }
  }
  // Expenses made in the same instant are ordered by id, which differs between the two.
  copy.expenses.sort { ($0.createdAt, $0.title) < ($1.createdAt, $1.title) }
  for index in copy.adPayments.indices { copy.adPayments[index].id = zero }
  for index in copy.marketingPlans.indices { copy.marketingPlans[index].id = zero }
  for index in copy.fundraisers.indices { copy.fundraisers[index].id = zero }
  return copy
}

@Suite("Account backup: export and import")
struct AccountBackupTests {
  @Test func aRoundTripOntoANewServerReproducesTheAccountExactly() async throws {
    let (file, original) = try await withApp { t in
      let client = t.client()
      let userID = try await fillAccount(t, client, email: "owner@example.com")
      let backup = try await export(t, userID)
      return (try backup.encoded(), backup)
    }
    #expect(original.products.items.count == 2)
    #expect(original.products.items.first?.photo != nil)
    #expect(original.products.items.first?.favoritedAt != nil)
    #expect(original.expenses.count == 3, "the deleted expense is not part of the account")
    let bought = try #require(original.expenses.first { $0.title == "Akkus" })
    #expect(bought.fundraiserId == original.fundraisers.first?.id)
    #expect(bought.receipts?.map(\.public) == [true, false])
    #expect(bought.receipts?.first?.data == ProductImages.png())
    #expect(original.fundraisers.first?.stage == "closed")
    #expect(original.fundraisers.first?.closedAt != nil)
    #expect(original.fundraisers.first?.jarSnapshots.count == 2)
    #expect(original.fundraisers.first?.photo != nil)
    #expect(original.fundraisers.first?.showQr == false)
    #expect(original.fundraisers.first?.callToAction == "Разом до перемоги!")
    #expect(original.marketingPlans.first?.packages.first?.packageId == "gold")

    try await withApp { t in
      let client = t.client()
      try await client.signUp(email: "owner@example.com")
      let user = try #require(
        try await Accounts.find(email: "owner@example.com", on: t.db))
      let outcome = try await AccountRestore.run(
        try AccountBackup.decode(file), into: try user.requireID(), merge: false,
        maxPhotoBytes: t.app.config.maxUploadBytes, on: t.db)
      #expect(outcome.added == original.counts)
      #expect(outcome.renamed == 0)

      let again = try await export(t, try user.requireID())
      #expect(again == original)
      #expect(try again.encoded() == file, "the file written again is the same file")

      // The restored account works like the original: same photo bytes, same Swipe numbers,
      // same totals, the poster renders, the settings came along.
      let chair = try #require(original.products.items.first { $0.name == "Stuhl Åland" })
      let photo = try await client.get("/products/\(chair.id.uuidString)/photo")
      #expect(photo.status == .ok)
      #expect(Data(photo.body.utf8).count > 0)
      let products = try await client.get("/products")
      #expect(products.body.contains("129,90"))
      #expect(products.body.contains("Stuhl Åland"))
      let expenses = try await client.get("/expenses")
      #expect(expenses.body.contains("140,60"))
      let receipt = try #require(
        try await ExpenseReceiptTable.query(on: t.db).filter(\.$isPublic == true).first())
      let picture = try await client.get(
        "/expenses/\(receipt.expenseID.uuidString)/receipts/\(try receipt.requireID().uuidString)")
      #expect(picture.status == .ok)
      let fundraiser = try #require(original.fundraisers.first)
      let poster = try await client.get("/fundraisers/\(fundraiser.id.uuidString)/poster.svg")
      #expect(poster.status == .ok)
      #expect(poster.body.contains("<svg"))
      let settings = try #require(try await Accounts.find(id: user.id, on: t.db))
      #expect(settings.locale == "de-DE")
      #expect(settings.currency == "EUR")
      let workspaceID = try await t.workspaceID(ofUser: try user.requireID())
      let counter = try await ProductCounter.query(on: t.db).filter(\.$workspaceID == workspaceID)
        .first()
      #expect(counter?.lastNumber == original.products.lastNumber)
    }
  }

  @Test func aSecondAccountOnTheSameServerGetsNewIDsAndTheSameData() async throws {
    try await withApp { t in
      let owner = t.client()
      let ownerID = try await fillAccount(t, owner, email: "owner@example.com")
      let original = try await export(t, ownerID)

      let copyClient = t.client()
      try await copyClient.signUp(email: "copy@example.com")
      let copyUser = try #require(
        try await Accounts.find(email: "copy@example.com", on: t.db))
      let copyID = try copyUser.requireID()
      let outcome = try await AccountRestore.run(
        try AccountBackup.decode(try original.encoded()), into: copyID, merge: false,
        maxPhotoBytes: t.app.config.maxUploadBytes, on: t.db)
      #expect(outcome.renamed == original.counts.total)

      let copy = try await export(t, copyID)
      #expect(withoutIDs(copy) == withoutIDs(original))
      #expect(
        Set(copy.products.items.map(\.id)).isDisjoint(with: original.products.items.map(\.id)))
      #expect(try await export(t, ownerID) == original, "the first account is unchanged")

      // The same file merged into the copy again adds nothing: the renamed records are known.
      let again = try await AccountRestore.run(
        original, into: copyID, merge: true, maxPhotoBytes: 5_000_000, on: t.db)
      #expect(again.added.total == 0)
      #expect(again.skipped == original.counts)
      #expect(try await export(t, copyID) == copy)

      // A later file of the first account, with a new expense spent for the fundraiser the copy
      // already has under its own id, links the new expense to the copy's fundraiser, never to
      // the first account's.
      let fundraiserID = try #require(original.fundraisers.first?.id)
      try await owner.addExpenseWithReceipts(
        title: "Later", amount: "7", fundraiser: fundraiserID, receipts: [], db: t.db)
      let later = try await export(t, ownerID)
      _ = try await AccountRestore.run(
        later, into: copyID, merge: true, maxPhotoBytes: 5_000_000, on: t.db)
      let merged = try await export(t, copyID)
      let copied = try #require(merged.expenses.first { $0.title == "Later" })
      #expect(copied.fundraiserId == merged.fundraisers.first?.id)
      #expect(copied.fundraiserId != fundraiserID)

      // The copy's favourite and photo belong to the copy's own product.
      let product = try #require(copy.products.items.first { $0.name == "Stuhl Åland" })
      #expect(product.favoritedAt != nil)
      #expect(try await copyClient.get("/products/\(product.id.uuidString)/photo").status == .ok)
      let theirs = try #require(original.products.items.first { $0.name == "Stuhl Åland" })
      #expect(
        try await copyClient.get("/products/\(theirs.id.uuidString)/photo").status == .notFound)
    }
  }

  @Test func aNonEmptyAccountIsRefusedUnlessMerging() async throws {
    try await withApp { t in
      let owner = t.client()
      let ownerID = try await fillAccount(t, owner, email: "owner@example.com")
      let file = try await export(t, ownerID)

      let other = t.client()
      try await other.signUp(email: "other@example.com")
      try await other.switchLocaleForExpenses("uk-UA", currency: "EUR")
      try await other.addAdPayment(name: "Mine", url: "https://mine.example.com", db: t.db)
      let otherID = try #require(
        try await Accounts.find(email: "other@example.com", on: t.db)?.id)
      let before = try await export(t, otherID)

      await #expect(
        throws: BackupError(
          "This account already has data (0 products, 0 expenses, 1 ad payment, "
            + "0 marketing plans, 0 fundraisers). Import into an empty account, or ask for a "
            + "merge to add the file's records next to what is there.")
      ) {
        try await AccountRestore.run(
          file, into: otherID, merge: false, maxPhotoBytes: 5_000_000, on: t.db)
      }
      #expect(try await export(t, otherID) == before, "nothing was written")

      let merged = try await AccountRestore.run(
        file, into: otherID, merge: true, maxPhotoBytes: 5_000_000, on: t.db)
      #expect(merged.added == file.counts)
      let after = try await export(t, otherID)
      #expect(after.adPayments.count == 2)
      #expect(after.account.locale == "uk-UA", "a merge keeps the account's settings")

      // The same file again adds nothing: the account already has every record.
      let again = try await AccountRestore.run(
        try AccountBackup.decode(after.encoded()), into: otherID, merge: true,
        maxPhotoBytes: 5_000_000, on: t.db)
      #expect(again.added.total == 0)
      #expect(again.skipped.total == after.counts.total)
      #expect(try await export(t, otherID) == after)
    }
  }

  @Test func aMergeRefusesAmountsInAnotherCurrency() async throws {
    try await withApp { t in
      let owner = t.client()
      let file = try await export(t, try await fillAccount(t, owner, email: "owner@example.com"))
      let other = t.client()
      try await other.signUp(email: "usd@example.com")
      try await other.addAdPayment(name: "Mine", url: "https://mine.example.com", db: t.db)
      let otherID = try #require(
        try await Accounts.find(email: "usd@example.com", on: t.db)?.id)
      await #expect(throws: BackupError.self) {
        try await AccountRestore.run(
          file, into: otherID, merge: true, maxPhotoBytes: 5_000_000, on: t.db)
      }
      do {
        _ = try await AccountRestore.run(
          file, into: otherID, merge: true, maxPhotoBytes: 5_000_000, on: t.db)
      } catch let error as BackupError {
        #expect(error.message.hasPrefix("The file's amounts are in EUR and this account uses USD"))
      }
      let otherWorkspace = try await t.workspaceID(ofUser: otherID)
      #expect(
        try await AdPaymentTable.query(on: t.db).filter(\.$workspaceID == otherWorkspace).count()
          == 1)
    }
  }

  @Test func productNumbersInUseMoveToTheNextFreeNumbersOnMerge() async throws {
    try await withApp { t in
      let userID = try await makeUser(t, "numbers@example.com")
      let workspaceID = try await t.workspaceID(ofUser: userID)
      let store = ProductStore(db: t.db, workspaceID: workspaceID, viewerID: nil)
      _ = try await store.create(Product(name: "Mine", type: "A", price: 1, tax: 0), photo: nil)
      let when = Date(timeIntervalSince1970: 1_790_000_000)
      let file = AccountBackup(
        exportedAt: when,
        account: .init(email: "x@example.com", locale: "en-US", currency: "USD"),
        products: .init(
          lastNumber: 7,
          items: [
            .init(
              id: UUID(), number: 1, name: "Clash", type: "A", price: "2.00", tax: "0.00",
              createdAt: when, updatedAt: when),
            .init(
              id: UUID(), number: 5, name: "Free", type: "A", price: "3.00", tax: "0.00",
              createdAt: when, updatedAt: when),
          ]),
        expenses: [], adPayments: [], marketingPlans: [], fundraisers: [])
      let outcome = try await AccountRestore.run(
        file, into: userID, merge: true, maxPhotoBytes: 5_000_000, on: t.db)
      #expect(outcome.renumbered == 1)
      let numbers = try await ProductRecord.query(on: t.db).filter(\.$workspaceID == workspaceID)
        .sort(\.$number).all().map { "\($0.number) \($0.name)" }
      #expect(numbers == ["1 Mine", "5 Free", "8 Clash"])
      let next = try await store.create(
        Product(name: "Next", type: "A", price: 1, tax: 0), photo: nil)
      #expect(next.number == 9, "the counter moved past every imported number")
    }
  }

  @Test func numbersOfDeletedProductsAreNotHandedOutAgain() async throws {
    try await withApp { t in
      let userID = try await makeUser(t, "deleted@example.com")
      let workspaceID = try await t.workspaceID(ofUser: userID)
      let store = ProductStore(db: t.db, workspaceID: workspaceID, viewerID: nil)
      let gone = try await store.create(
        Product(name: "Gone", type: "A", price: 1, tax: 0), photo: nil)
      try await store.delete(gone, now: t.clock.now)
      let when = Date(timeIntervalSince1970: 1_790_000_000)
      let file = AccountBackup(
        exportedAt: when,
        account: .init(email: "x@example.com", locale: "en-US", currency: " usd "),
        products: .init(
          lastNumber: 1,
          items: [
            .init(
              id: UUID(), number: 1, name: "New one", type: "A", price: "2.00", tax: "0.00",
              createdAt: when, updatedAt: when)
          ]),
        expenses: [], adPayments: [], marketingPlans: [], fundraisers: [])
      let outcome = try await AccountRestore.run(
        file, into: userID, merge: false, maxPhotoBytes: 5_000_000, on: t.db)
      #expect(outcome.renumbered == 1)
      let numbers = try await ProductRecord.query(on: t.db).filter(\.$workspaceID == workspaceID)
        .all().map(\.number)
      #expect(numbers == [2], "a Swipe client that remembers product 1 never meets another one")
      #expect(try await Accounts.find(id: userID, on: t.db)?.currency == "USD")
    }
  }

  @Test func anExpenseWaitingForItsUndoIsReplacedNotDoubled() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(email: "undo@example.com")
      let userID = try #require(
        try await Accounts.find(email: "undo@example.com", on: t.db)?.id)
      let id = try await client.addExpense(title: "Lunch", amount: "12.50", db: t.db)
      let file = try await export(t, userID)
      let record = try #require(try await ExpenseTable.find(id, on: t.db))
      record.deletedAt = t.clock.now
      try await record.save(on: t.db)

      let outcome = try await AccountRestore.run(
        file, into: userID, merge: false, maxPhotoBytes: 5_000_000, on: t.db)
      #expect(outcome.added.expenses == 1)
      let workspaceID = try await t.workspaceID(ofUser: userID)
      let rows = try await ExpenseTable.query(on: t.db).filter(\.$workspaceID == workspaceID)
        .all()
      #expect(rows.map(\.id) == [id])
      #expect(rows.first?.deletedAt == nil)
    }
  }

  @Test func aFileWithBadRecordsIsRefusedWithEveryProblemAndNothingIsWritten() async throws {
    try await withApp { t in
      let userID = try await makeUser(t, "bad@example.com")
      let when = Date(timeIntervalSince1970: 1_790_000_000)
      let twice = UUID()
      let file = AccountBackup(
        exportedAt: when,
        account: .init(email: "x@example.com", locale: "xx-XX", currency: "EUR"),
        products: .init(
          lastNumber: 1,
          items: [
            .init(
              id: twice, number: 1, name: "", type: "A", price: "abc", tax: "0.00",
              photo: .init(mime: "image/png", data: Data("not a picture".utf8)),
              createdAt: when, updatedAt: when)
          ]),
        expenses: [
          .init(
            id: twice, title: "Lunch", amount: "-1", category: "Food", createdAt: when,
            updatedAt: when)
        ],
        adPayments: [
          .init(id: UUID(), name: "Ads", url: "notaurl", createdAt: when, updatedAt: when),
          .init(
            id: UUID(), name: "Fine", url: "https://fine.example.com", createdAt: when,
            updatedAt: when),
        ],
        marketingPlans: [
          .init(
            id: UUID(), name: " ", targets: [], packages: [], recipient: "nobody",
            createdAt: when, updatedAt: when)
        ],
        fundraisers: [
          .init(
            id: UUID(), purpose: "Дрон", target: "-5", jarId: nil, template: 99, scale: 1,
            offsetX: 0, offsetY: 0, showProgress: false, photo: nil, jarSnapshots: [],
            createdAt: when, updatedAt: when)
        ])
      do {
        _ = try await AccountRestore.run(
          file, into: userID, merge: false, maxPhotoBytes: 5_000_000, on: t.db)
        Issue.record("a bad file was imported")
      } catch let error as BackupError {
        let expected = [
          "Nothing was imported; the file has",
          "account.locale: \"xx-XX\" is not one of",
          "products[0].photo:",
          "products[0].name: \(ProductMessage.nameBlank)",
          "products[0].price: \(ProductMessage.priceNotANumber)",
          "expenses[0].id: \(twice) appears twice in the file.",
          "expenses[0].amount: ",
          "ad_payments[0].url: Please enter a valid URL",
          "marketing_plans[0].name: Give the plan a name.",
          "marketing_plans[0].recipient:",
          "fundraisers[0].photo: \(CampaignMessages.noImage)",
          "fundraisers[0].template: a number from 1 to 15.",
          "fundraisers[0].target:",
        ]
        for part in expected {
          #expect(error.message.contains(part), "missing \(part) in \(error.message)")
        }
        #expect(!error.message.contains("ad_payments[1]"))
      }
      let workspaceID = try await t.workspaceID(ofUser: userID)
      #expect(
        try await AccountRestore.existingCounts(workspaceID: workspaceID, on: t.db).total == 0)
      let user = try #require(try await Accounts.find(id: userID, on: t.db))
      #expect(user.currency == "USD", "settings are not changed by a refused file")
    }
  }

  @Test func settingsOffersTheSignedInAccountsBackupOnly() async throws {
    try await withApp { t in
      let owner = t.client()
      try await fillAccount(t, owner, email: "owner@example.com")
      let other = t.client()
      try await other.signUp(email: "other@example.com")
      try await other.addAdPayment(name: "Other's", url: "https://other.example.com", db: t.db)

      let page = try await owner.get("/settings")
      #expect(page.body.contains("href=\"/settings/backup\""))
      let response = try await owner.get("/settings/backup")
      #expect(response.status == .ok)
      // Named after the app's clock (2026-09-21), not the machine's.
      #expect(
        response.headers.first(name: .contentDisposition)
          == "attachment; filename=\"backoffice-backup-2026-09-21.json\"")
      #expect(response.headers.first(name: .cacheControl) == "no-store")
      let file = try AccountBackup.decode(Data(response.body.utf8))
      #expect(file.exportedAt == t.clock.now)
      #expect(file.account.email == "owner@example.com")
      #expect(file.products.items.count == 2)
      #expect(file.adPayments.map(\.name) == ["Spring ads"])

      let theirs = try AccountBackup.decode(Data(try await other.get("/settings/backup").body.utf8))
      #expect(theirs.adPayments.map(\.name) == ["Other's"])
      #expect(theirs.products.items.isEmpty)

      let anonymous = t.client()
      #expect(try await anonymous.get("/settings/backup").status == .seeOther)
    }
  }

  @Test func unreadableFilesSayWhatIsWrong() throws {
    func message(_ text: String) -> String {
      do {
        _ = try AccountBackup.decode(Data(text.utf8))
        return "decoded"
      } catch {
        return error.message
      }
    }
    #expect(message("hello").hasPrefix("The file is not a JSON object"))
    #expect(message(#"{"format": "other", "version": 1}"#).contains("not a Backoffice account"))
    #expect(
      message(#"{"format": "backoffice-account", "version": 2}"#).contains("newer version"))
    #expect(
      message(#"{"format": "backoffice-account", "version": 1, "exported_at": "yesterday"}"#)
        .contains("exported_at: \"yesterday\" is not a date"))
    #expect(
      message(
        #"{"format": "backoffice-account", "version": 1, "exported_at": "2026-11-22T00:00:00Z"}"#
      ) == "The file is damaged: account is missing.")
  }

  @Test func datesKeepTheirMilliseconds() throws {
    let date = Date(timeIntervalSince1970: 1_790_000_000.123456)
    let text = BackupDate.format(date)
    #expect(text == "2026-09-21T14:13:20.123Z")
    let back = try #require(BackupDate.parse(text))
    #expect(BackupDate.format(back) == text)
    #expect(BackupDate.parse("2026-09-21T14:13:20Z") == Date(timeIntervalSince1970: 1_790_000_000))
    #expect(
      BackupDate.parse("2026-09-21T14:13:20.5Z") == Date(timeIntervalSince1970: 1_790_000_000.5))
    #expect(BackupDate.parse("2026-09-21T14:13:20+02:00") == nil)
    #expect(BackupDate.parse("2026-09-21T14:13:20.1234567Z") == nil)
  }
}
