import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Two browsers on one plan: a step sent from a page of an older version is not applied; the
/// page comes back as the plan is now, with a notice.
@Suite("Marketing plans: record versions", .serialized)
struct MarketingPlanVersionTests {
  static let facebook = "0af1bfee844a7003cec5"

  struct Pair {
    let first: TestClient
    let second: TestClient
    let id: String
    var base: String { "/marketing/plans/\(id)" }

    func record(_ t: TestApp) async throws -> MarketingPlanTable {
      try #require(try await MarketingPlanTable.find(UUID(uuidString: id), on: t.db))
    }
  }

  func pair(_ t: TestApp) async throws -> Pair {
    let first = t.client()
    let email = try await first.signUp()
    let id = try await first.newPlan()
    let second = t.client()
    _ = try await second.signIn(email: email)
    return Pair(first: first, second: second, id: id)
  }

  @Test func aStaleToggleIsNotAppliedAndThePageShowsThePlanAsItIsNow() async throws {
    try await withApp { t in
      let plan = try await pair(t)
      let targets = "\(plan.base)/targets"
      #expect(try await plan.first.get(targets).body.contains(#"name="version" value="1""#))
      try await plan.second.get(targets)
      #expect(
        try await plan.first.post("\(targets)/toggle", form: [("target", "Location")]).status
          == .seeOther)

      let stale = try await plan.second.post(
        "\(targets)/toggle", form: [("target", "Company"), ("version", "1")])
      #expect(stale.status == .conflict)
      #expect(stale.body.contains("This plan was changed since you opened it"))
      #expect(stale.body.contains("\u{201C}Company\u{201D} was not switched"))
      #expect(stale.body.contains("Selected: 1 option(s)"), "the page shows Location, chosen")
      #expect(stale.body.contains(#"name="version" value="2""#))
      #expect(try await plan.record(t).selection.targetNames == ["Location"])

      let again = try await plan.second.post("\(targets)/toggle", form: [("target", "Company")])
      #expect(again.status == .seeOther)
      #expect(try await plan.record(t).selection.targetNames == ["Location", "Company"])
      #expect(try await plan.record(t).version == 3)
    }
  }

  @Test func staleChooseResetAndRemoveAreNotApplied() async throws {
    try await withApp { t in
      let plan = try await pair(t)
      try await plan.first.postOn(
        "\(plan.base)/targets", "\(plan.base)/targets/toggle", form: [("target", "Location")])
      let channel = "\(plan.base)/channels/\(Self.facebook)"
      try await plan.first.get(channel)
      try await plan.second.get(channel)
      #expect(
        try await plan.first.post("\(channel)/choose", form: [("package", "facebook_0")]).status
          == .seeOther)
      let version = try await plan.record(t).version

      let choose = try await plan.second.post(
        "\(channel)/choose", form: [("package", "facebook_1"), ("version", "2")])
      #expect(choose.status == .conflict)
      #expect(choose.body.contains("was not chosen"))
      #expect(
        choose.body.contains(#"class="mk-package mk-package-chosen" id="package-0""#),
        "the page shows the package chosen meanwhile")
      let reset = try await plan.second.post("\(channel)/reset", form: [("version", "2")])
      #expect(reset.status == .conflict)
      #expect(reset.body.contains("was not reset"))
      var record = try await plan.record(t)
      #expect(record.selection.chosenPackageID(forChannel: Self.facebook) == "facebook_0")
      #expect(record.version == version)

      try await plan.first.get("\(plan.base)/review")
      try await plan.second.get("\(plan.base)/review")
      #expect(
        try await plan.first.post("\(plan.base)/rename", form: [("name", "Moved on")]).status
          == .seeOther)
      let remove = try await plan.second.post(
        "\(plan.base)/review/remove", form: [("package", "facebook_0")])
      #expect(remove.status == .conflict)
      #expect(remove.body.contains("was not removed"))
      #expect(remove.body.contains(">Moved on</span>"))
      record = try await plan.record(t)
      #expect(record.selection.chosenPackageID(forChannel: Self.facebook) == "facebook_0")
      // The refused page carries the current version: removing again removes.
      #expect(
        try await plan.second.post("\(plan.base)/review/remove", form: [("package", "facebook_0")])
          .status == .seeOther)
      #expect(try await plan.record(t).selection.chosenPackageID(forChannel: Self.facebook) == nil)
    }
  }

  @Test func aStaleRenameOrEmailKeepsWhatWasTypedAndShowsTheSavedValues() async throws {
    try await withApp { t in
      let plan = try await pair(t)
      try await plan.first.postOn(
        "\(plan.base)/targets", "\(plan.base)/targets/toggle", form: [("target", "Location")])
      try await plan.first.postOn(
        "\(plan.base)/channels/\(Self.facebook)", "\(plan.base)/channels/\(Self.facebook)/choose",
        form: [("package", "facebook_0")])
      let review = "\(plan.base)/review"
      try await plan.first.get(review)
      try await plan.second.get(review)
      #expect(
        try await plan.first.post(
          "\(plan.base)/email", form: [("recipient", "boss@example.com"), ("subject", "Plan A")]
        ).status == .seeOther)

      let email = try await plan.second.post(
        "\(plan.base)/email", form: [("recipient", "cfo@example.com"), ("subject", "Plan A")])
      #expect(email.status == .conflict)
      #expect(email.body.contains("the email details are not saved yet"))
      #expect(email.body.contains(#"value="cfo@example.com""#))
      #expect(email.body.contains("Saved now:</span> <strong>boss@example.com</strong>"))
      #expect(!email.body.contains(#"id="field-subject-saved""#))
      #expect(try await plan.record(t).recipient == "boss@example.com")
      let emailAgain = try await plan.second.post(
        "\(plan.base)/email", form: [("recipient", "cfo@example.com"), ("subject", "Plan A")])
      #expect(emailAgain.status == .seeOther)
      #expect(try await plan.record(t).recipient == "cfo@example.com")

      try await plan.first.get(review)
      #expect(
        try await plan.first.post("\(plan.base)/rename", form: [("name", "Alpha"), ("step", "4")])
          .status == .seeOther)
      let rename = try await plan.second.post(
        "\(plan.base)/rename", form: [("name", "Beta"), ("step", "4")])
      #expect(rename.status == .conflict)
      #expect(rename.body.contains(#"<details class="mk-rename" open>"#))
      #expect(rename.body.contains(#"value="Beta""#))
      #expect(rename.body.contains("Saved now:</span> <strong>Alpha</strong>"))
      #expect(try await plan.record(t).name == "Alpha")
      #expect(
        try await plan.second.post("\(plan.base)/rename", form: [("name", "Beta"), ("step", "4")])
          .status == .seeOther)
      #expect(try await plan.record(t).name == "Beta")
    }
  }

  @Test func aDeletedPlanIsAClearMessage() async throws {
    try await withApp { t in
      let plan = try await pair(t)
      try await plan.first.get("/marketing")
      try await plan.second.get("\(plan.base)/targets")
      #expect(try await plan.first.post("\(plan.base)/delete").status == .seeOther)
      let again = try await plan.second.post("\(plan.base)/delete")
      #expect(again.status == .notFound)
      #expect(again.body.contains("This plan no longer exists"))
      let rename = try await plan.second.post("\(plan.base)/rename", form: [("name", "Mine")])
      #expect(rename.status == .notFound)
      #expect(rename.body.contains("<dd>Mine</dd>"))
      let toggle = try await plan.second.post(
        "\(plan.base)/targets/toggle", form: [("target", "Location")])
      #expect(toggle.status == .notFound)
      #expect(toggle.body.contains("This plan no longer exists"))
    }
  }

  @Test func theAPISendsETagsAndHonoursIfMatch() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.apiJSON(
        .POST, "/api/v1/marketing/plans", token: token, json: #"{"name": "Autumn"}"#)
      #expect(created.status == .created)
      #expect(created.headers.first(name: .eTag) == #""1""#)
      #expect(try created.json()["version"] as? Int == 1)
      let id = try #require(try created.json()["id"] as? String)
      let path = "/api/v1/marketing/plans/\(id)"
      #expect(
        try await client.apiJSON(.GET, path, token: token).headers.first(name: .eTag) == #""1""#)

      let mismatch = try await client.api(
        .PATCH, path, token: token, json: #"{"name": "Winter"}"#, headers: ["If-Match": #""2""#])
      #expect(mismatch.status == .preconditionFailed)
      #expect(try mismatch.json()["error"] != nil)
      #expect(
        try await MarketingPlanTable.find(UUID(uuidString: id), on: t.db)?.name == "Autumn")
      let matched = try await client.api(
        .PATCH, path, token: token, json: #"{"name": "Winter"}"#, headers: ["If-Match": #""1""#])
      #expect(matched.status == .ok)
      #expect(matched.headers.first(name: .eTag) == #""2""#)
      #expect(try matched.json()["version"] as? Int == 2)

      let copy = try await client.apiJSON(.POST, "\(path)/duplicate", token: token)
      #expect(copy.headers.first(name: .eTag) == #""1""#, "a copy is a new record")

      let staleDelete = try await client.api(
        .DELETE, path, token: token, headers: ["If-Match": #""1""#])
      #expect(staleDelete.status == .preconditionFailed)
      #expect(try await MarketingPlanTable.query(on: t.db).count() == 2)
      let delete = try await client.api(
        .DELETE, path, token: token, headers: ["If-Match": #""2""#])
      #expect(delete.status == .noContent)
    }
  }

  @Test func ofTwoParallelChangesWithOneVersionExactlyOneWins() async throws {
    try await withApp { t in
      let plan = try await pair(t)
      let token = try await plan.first.createToken()
      let path = "/api/v1/marketing/plans/\(plan.id)"
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for name in ["Left", "Right"] {
          group.addTask {
            try await t.client().api(
              .PATCH, path, token: token, json: #"{"name": "\#(name)"}"#,
              headers: ["If-Match": #""1""#]
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.sorted { $0.code < $1.code } == [.ok, .preconditionFailed])

      let targets = "\(plan.base)/targets"
      try await plan.first.get(targets)
      try await plan.second.get(targets)
      let toggles = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for (browser, target) in [(plan.first, "Location"), (plan.second, "Company")] {
          group.addTask {
            try await browser.post("\(targets)/toggle", form: [("target", target)]).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(toggles.sorted { $0.code < $1.code } == [.seeOther, .conflict])
      #expect(try await plan.record(t).selection.targetNames.count == 1)
    }
  }

  /// A catalog that no longer offers a chosen package changes the plan: its version moves on.
  @Test func aCatalogChangeThatDropsAChoiceIsAChange() async throws {
    try await withApp { t in
      let plan = try await pair(t)
      try await plan.first.postOn(
        "\(plan.base)/targets", "\(plan.base)/targets/toggle", form: [("target", "Location")])
      let before = try await plan.record(t).version
      var catalog = MarketingCatalog.bundledDefault
      catalog.targets.removeAll { $0.name == "Location" }
      try await MarketingCatalogStore.replace(
        with: catalog, source: .upload, detail: "test", on: t.db, now: t.clock.now)
      let record = try await plan.record(t)
      #expect(record.selection.targetNames.isEmpty)
      #expect(record.version == before + 1)
    }
  }

  /// A save writes only the fields it changed: a copy read before another save changed the
  /// name never writes the old name back (an API update without `If-Match` that sends only
  /// the recipient, or a page's change to the selection).
  @Test func aSaveWritesOnlyWhatItChanged() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let userID = try #require(try await Accounts.all(on: t.db).first?.id)
      let workspaceID = try await t.workspaceID(ofUser: userID)
      var plan = MarketingPlanRecord(
        workspaceID: workspaceID, name: "Alpha", selection: PlanSelection(),
        recipient: "a@example.com")
      try await MarketingPlanQueries.create(&plan, on: t.db)
      let read = plan

      var other = plan
      #expect(
        try await MarketingPlanQueries.save(&other, expected: nil, on: t.db) { $0.name = "Beta" })
      #expect(other.name == "Beta" && other.version == 2)

      // Changed in place, as the API's update does, against the plan as it was read.
      plan.recipient = "b@example.com"
      #expect(
        try await MarketingPlanQueries.save(&plan, expected: nil, original: read, on: t.db))
      #expect(plan.name == "Beta" && plan.recipient == "b@example.com" && plan.version == 3)

      // Through `change`, from the same stale copy.
      var stale = read
      #expect(
        try await MarketingPlanQueries.save(&stale, expected: nil, on: t.db) {
          $0.selection = PlanSelection(targetNames: ["Location"], chosenPackageIDs: [:])
        })
      let stored = try #require(try await MarketingPlanTable.find(plan.id, on: t.db))
      #expect(stored.name == "Beta" && stored.recipient == "b@example.com")
      #expect(stored.selection.targetNames == ["Location"] && stored.version == 4)
    }
  }
}
