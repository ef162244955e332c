import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit

extension AccountRestore {
  // MARK: - checking the file

  /// The file's records as the app's own values, or every problem found.
  struct Checked {
    /// Highest product number a file may use; far above any real catalog, far below overflow.
    static let maxNumber = 1_000_000_000
    /// Highest record version a file may give; far above any real record, far below overflow.
    static let maxVersion = 1_000_000_000

    var locale: BackofficeLocale
    /// The interface language, when the file names one.
    var language: UILanguage?
    /// The file's currency as the app writes codes ("EUR").
    var currency: String
    var products: [(item: AccountBackup.ProductItem, product: Product, photo: CheckedPhoto?)] =
      []
    var expenses:
      [(
        item: AccountBackup.ExpenseItem, expense: Expense,
        receipts: [(photo: CheckedPhoto, isPublic: Bool)]
      )] = []
    var adPayments: [(item: AccountBackup.AdPaymentItem, payment: AdPayment)] = []
    var plans:
      [(item: AccountBackup.MarketingPlanItem, name: String, recipient: String, subject: String?)] =
        []
    var fundraisers:
      [(
        item: AccountBackup.FundraiserItem, campaign: Campaign, photo: ValidPhoto,
        snapshots: [AccountBackup.JarSnapshotItem]
      )] = []

    init(_ backup: AccountBackup, maxPhotoBytes: Int) throws(BackupError) {
      var problems: [String] = []
      func problem(_ text: String) { problems.append(text) }

      let account = backup.account
      let locale = BackofficeLocale(identifier: account.locale)
      if locale == nil {
        problem(
          "account.locale: \"\(account.locale)\" is not one of "
            + BackofficeLocale.supported.map(\.identifier).joined(separator: ", ") + ".")
      }
      let currency = Currency.lookup(account.currency)
      if currency == nil {
        problem("account.currency: \"\(account.currency)\" is not an ISO 4217 code.")
      }
      self.locale = locale ?? .enUS
      self.language = account.language.flatMap { UILanguage(rawValue: $0) }
      if let language = account.language, UILanguage(rawValue: language) == nil {
        problem(
          "account.language: \"\(language)\" is not one of "
            + UILanguage.allCases.map(\.rawValue).joined(separator: ", ") + ".")
      }
      self.currency = currency?.code ?? account.currency

      var seen = Set<UUID>()
      func unique(_ id: UUID, _ at: String) {
        if !seen.insert(id).inserted { problem("\(at).id: \(id) appears twice in the file.") }
      }
      func versioned(_ version: Int?, _ at: String) {
        if let version, !(1...Self.maxVersion).contains(version) {
          problem("\(at).version: must be from 1 to \(Self.maxVersion).")
        }
      }

      if !(0...Self.maxNumber).contains(backup.products.lastNumber) {
        problem("products.last_number: must be from 0 to \(Self.maxNumber).")
      }
      var numbers = Set<Int>()
      for (index, item) in backup.products.items.enumerated() {
        let at = "products[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        if !(1...Self.maxNumber).contains(item.number) {
          problem("\(at).number: must be from 1 to \(Self.maxNumber).")
        }
        if !numbers.insert(item.number).inserted {
          problem("\(at).number: \(item.number) appears twice in the file.")
        }
        let input = ProductInput(
          name: item.name, type: item.type, price: DecimalInput(item.price),
          tax: DecimalInput(item.tax))
        var photo: CheckedPhoto?
        if let file = item.photo {
          switch CheckedPhoto.check(file.data, maxBytes: maxPhotoBytes) {
          case .success(let checked): photo = checked
          case .failure(let error): problem("\(at).photo: \(error.message)")
          }
        }
        switch input.validate() {
        case .success(let product): products.append((item, product, photo))
        case .failure(let error):
          for field in error.errors { problem("\(at).\(field.field.rawValue): \(field.message)") }
        }
      }

      for (index, item) in backup.expenses.enumerated() {
        let at = "expenses[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        let draft = ExpenseDraft(title: item.title, amount: item.amount, category: item.category)
        switch draft.validate(
          amountSyntax: .decimalString,
          maxFractionDigits: Currency.minorUnits(for: currency?.code ?? "EUR"))
        {
        case .success(var expense):
          if expense.title != item.title {
            problem(
              "\(at).title: \"\(item.title)\" is longer than \(Expense.maxTitleLength) "
                + "characters or has surrounding spaces.")
          }
          expense.date = item.spentAt
          var receipts: [(photo: CheckedPhoto, isPublic: Bool)] = []
          let given = item.receipts ?? []
          if given.count > ExpenseReceipts.maxPerExpense {
            problem("\(at).receipts: at most \(ExpenseReceipts.maxPerExpense) per expense.")
          }
          for (position, receipt) in given.enumerated() {
            switch CheckedPhoto.check(receipt.data, maxBytes: maxPhotoBytes) {
            case .success(let photo): receipts.append((photo, receipt.public))
            case .failure(let error): problem("\(at).receipts[\(position)]: \(error.message)")
            }
          }
          if let fundraiser = item.fundraiserId,
            !backup.fundraisers.contains(where: { $0.id == fundraiser })
          {
            problem("\(at).fundraiser_id: no fundraiser in the file has this id.")
          }
          expenses.append((item, expense, receipts))
        case .failure(let errors):
          for (field, message) in errors.fields.sorted(by: { $0.key < $1.key }) {
            problem("\(at).\(field): \(message)")
          }
        }
      }

      for (index, item) in backup.adPayments.enumerated() {
        let at = "ad_payments[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        switch AdPaymentDraft(name: item.name, url: item.url).validate() {
        case .success(let payment): adPayments.append((item, payment))
        case .failure: break
        }
        for (field, message) in AdPaymentDraft(name: item.name, url: item.url).fieldErrors
          .sorted(by: { $0.key.rawValue < $1.key.rawValue })
        {
          problem("\(at).\(field.rawValue): \(message)")
        }
      }

      for (index, item) in backup.marketingPlans.enumerated() {
        let at = "marketing_plans[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        let name = PlanName.normalize(item.name)
        let recipient = item.recipient.trimmingCharacters(in: .whitespacesAndNewlines)
        let subject = item.subject.map(MarketingPlanRules.cleanSubject).flatMap {
          $0.isEmpty ? nil : $0
        }
        var valid = true
        if let message = PlanName.problem(with: name) {
          problem("\(at).name: \(message)")
          valid = false
        }
        if let message = MarketingPlanRules.recipientProblem(recipient) {
          problem("\(at).recipient: \(message)")
          valid = false
        }
        if let subject, let message = MarketingPlanRules.subjectProblem(subject) {
          problem("\(at).subject: \(message)")
          valid = false
        }
        if valid { plans.append((item, name, recipient, subject)) }
      }

      for (index, item) in backup.fundraisers.enumerated() {
        let at = "fundraisers[\(index)]"
        unique(item.id, at)
        versioned(item.version, at)
        var photo: ValidPhoto?
        switch ValidPhoto.check(item.photo?.data, maxBytes: maxPhotoBytes) {
        case .success(let valid)?: photo = valid
        case .failure(let error)?: problem("\(at).photo: \(error.message)")
        case nil: problem("\(at).photo: \(CampaignMessages.noImage)")
        }
        var jar: JarID?
        if let raw = item.jarId {
          jar = JarID(rawValue: raw)
          if jar == nil { problem("\(at).jar_id: \"\(raw)\" is not a jar id.") }
        }
        let template = PosterTemplate(number: item.template)
        if template == nil { problem("\(at).template: a number from 1 to 15.") }
        let draft = CampaignDraft(
          purpose: item.purpose, targetText: item.target ?? "", hasPhoto: true,
          template: template ?? .blueLinear,
          imagePlacement: ImagePlacement(
            scale: item.scale, offsetX: item.offsetX, offsetY: item.offsetY),
          showProgress: item.showProgress, showQR: item.showQr ?? true,
          callToAction: item.callToAction ?? "")
        var campaign: Campaign?
        do throws(CampaignValidationErrors) {
          campaign = try draft.validate()
          campaign?.jar = jar
        } catch {
          for field in error.fields {
            problem("\(at).\(field.rawValue): \(error[field] ?? "")")
          }
        }
        for (position, snapshot) in item.jarSnapshots.enumerated()
        where JarID(rawValue: snapshot.jarId) == nil {
          problem("\(at).jar_snapshots[\(position)].jar_id: \"\(snapshot.jarId)\" is not a jar id.")
        }
        if let stage = item.stage, FundraiserStage(rawValue: stage) == nil {
          problem("\(at).stage: \"\(stage)\" is not one of active, closed, reported.")
        }
        if let campaign, let photo {
          fundraisers.append((item, campaign, photo, item.jarSnapshots))
        }
      }

      guard problems.isEmpty else {
        var lines = problems.prefix(AccountRestore.problemsShown).map { "  - " + $0 }
        if problems.count > AccountRestore.problemsShown {
          lines.append("  … and \(problems.count - AccountRestore.problemsShown) more.")
        }
        throw BackupError(
          "Nothing was imported; the file has \(problems.count) problem"
            + "\(problems.count == 1 ? "" : "s"):\n" + lines.joined(separator: "\n"))
      }
    }
  }
}
